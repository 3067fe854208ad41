import { Input, InputGroup, NativeSelect, Stack } from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { SCRIPT_SEARCH_MAX_LENGTH } from '@moonrelay/contract/scripts';
import { SCRIPT_TYPE_FILTERS, type ScriptTypeFilter } from './script-filter.ts';

interface Props {
  search: string;
  onSearchChange: (search: string) => void;
  type: ScriptTypeFilter;
  onTypeChange: (type: ScriptTypeFilter) => void;
}

export function ScriptFilters({ search, onSearchChange, type, onTypeChange }: Props) {
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
      <InputGroup flex="1" startElement={<Search size={16} />}>
        <Input
          type="search"
          aria-label="Search scripts"
          placeholder="Search scripts..."
          value={search}
          maxLength={SCRIPT_SEARCH_MAX_LENGTH}
          onChange={(event) => onSearchChange(event.target.value)}
        />
      </InputGroup>
      <NativeSelect.Root width={{ base: 'full', sm: '48' }}>
        <NativeSelect.Field
          aria-label="Filter scripts by type"
          value={type}
          onChange={(event) => onTypeChange(event.target.value as ScriptTypeFilter)}
        >
          {SCRIPT_TYPE_FILTERS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Stack>
  );
}
