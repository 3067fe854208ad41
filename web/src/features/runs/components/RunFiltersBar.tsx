import { Button, Field, Input, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { isTimeRange, RANGE_OPTIONS, STATUS_OPTIONS, TARGET_OPTIONS } from '../run-filters.ts';
import { RUNS_TEXT } from '../run-text.ts';

/** Address parameters the filters set; null removes one. */
export type FilterChange = Record<string, string | null>;

const FILTER_PARAMS = ['script', 'by', 'target', 'status', 'server', 'range', 'from', 'to'];

export const hasFilters = (params: URLSearchParams) =>
  FILTER_PARAMS.some((name) => params.has(name) && !(name === 'range' && params.get(name) === 'any'));

interface Props {
  scripts: readonly { id: string; name: string }[];
  /** A team's members, to pick whose runs to list; empty on one's own account (every run is theirs). */
  people: readonly { userId: string; username: string }[];
  params: URLSearchParams;
  onChange(change: FilterChange): void;
}

function FilterSelect(props: { label: string; value: string; onChange(value: string): void; children: ReactNode }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs" color="fg.muted">
        {props.label}
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          aria-label={`Filter runs by ${props.label.toLowerCase()}`}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        >
          {props.children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** The Runs page's filters: script, person (on a team), target, status, game server and time range (kept in the address). */
export function RunFiltersBar({ scripts, people, params, onChange }: Props) {
  const range = params.get('range');
  const shownRange = isTimeRange(range) ? range : 'any';
  const set = (name: string) => (value: string) => onChange({ [name]: value || null });
  // The server id applies on Enter or when the field is left, not at every key.
  const [server, setServer] = useState(params.get('server') ?? '');
  const [appliedServer, setAppliedServer] = useState(params.get('server') ?? '');
  if ((params.get('server') ?? '') !== appliedServer) {
    setAppliedServer(params.get('server') ?? '');
    setServer(params.get('server') ?? '');
  }
  const applyServer = () => {
    if (server.trim() !== appliedServer) onChange({ server: server.trim() || null });
  };
  const scriptId = params.get('script') ?? '';
  const scriptKnown = !scriptId || scripts.some((script) => script.id === scriptId);
  const personId = params.get('by') ?? '';
  const personKnown = !personId || people.some((person) => person.userId === personId);

  return (
    <Stack gap="3">
      <SimpleGrid columns={{ base: 2, lg: people.length > 0 ? 6 : 5 }} gap="3" alignItems="end">
        <FilterSelect label="Script" value={scriptId} onChange={set('script')}>
          <option value="">All scripts</option>
          {/* The scripts may still be loading (or the script is gone): the chosen one stays chosen. */}
          {!scriptKnown && <option value={scriptId}>Selected script</option>}
          {scripts.map((script) => (
            <option key={script.id} value={script.id}>
              {script.name}
            </option>
          ))}
        </FilterSelect>
        {people.length > 0 && (
          <FilterSelect label="Person" value={personId} onChange={set('by')}>
            <option value="">Everyone</option>
            {/* A former member's runs stay listed by their id from a shared link. */}
            {!personKnown && <option value={personId}>A former member</option>}
            {people.map((person) => (
              <option key={person.userId} value={person.userId}>
                {person.username}
              </option>
            ))}
          </FilterSelect>
        )}
        <FilterSelect label="Target" value={params.get('target') ?? ''} onChange={set('target')}>
          <option value="">All targets</option>
          {TARGET_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Status" value={params.get('status') ?? ''} onChange={set('status')}>
          <option value="">All statuses</option>
          {STATUS_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </FilterSelect>
        <Field.Root>
          <Field.Label fontSize="xs" color="fg.muted">
            Server
          </Field.Label>
          <Input
            size="sm"
            aria-label="Filter runs by game server"
            placeholder="Any game server"
            value={server}
            onChange={(event) => setServer(event.target.value)}
            onBlur={applyServer}
            onKeyDown={(event) => {
              if (event.key === 'Enter') applyServer();
            }}
          />
        </Field.Root>
        <FilterSelect
          label="Time"
          value={shownRange}
          onChange={(value) => onChange({ range: value === 'any' ? null : value, from: null, to: null })}
        >
          {RANGE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </FilterSelect>
      </SimpleGrid>
      {(shownRange === 'custom' || hasFilters(params)) && (
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" align={{ base: 'stretch', sm: 'end' }}>
          {shownRange === 'custom' && (
            <>
              <Field.Root maxW={{ sm: '60' }}>
                <Field.Label fontSize="xs" color="fg.muted">
                  From
                </Field.Label>
                <Input
                  size="sm"
                  type="datetime-local"
                  aria-label="Runs from"
                  value={params.get('from') ?? ''}
                  onChange={(event) => onChange({ from: event.target.value || null })}
                />
              </Field.Root>
              <Field.Root maxW={{ sm: '60' }}>
                <Field.Label fontSize="xs" color="fg.muted">
                  To
                </Field.Label>
                <Input
                  size="sm"
                  type="datetime-local"
                  aria-label="Runs until"
                  value={params.get('to') ?? ''}
                  onChange={(event) => onChange({ to: event.target.value || null })}
                />
              </Field.Root>
            </>
          )}
          {hasFilters(params) && (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onChange(Object.fromEntries(FILTER_PARAMS.map((name) => [name, null])))}
            >
              <X size={14} /> {RUNS_TEXT.clearFilters}
            </Button>
          )}
        </Stack>
      )}
    </Stack>
  );
}
