import { Field, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { SERVER_CHOICES_SHOWN, SERVER_SELECT_TEXT, type ServerChoice } from './server-select-text.ts';

export { SERVER_CHOICES_SHOWN, SERVER_SELECT_TEXT, type ServerChoice };

interface Props {
  label: string;
  servers: readonly ServerChoice[];
  /** The chosen server's id ('' for the "all" option). */
  value: string;
  onChange(serverId: string): void;
  /** A first option for every server at once, whose value is ''. */
  allLabel?: string;
}

/**
 * Chooses one of the game's live servers. A few are a plain select; many are a search field over
 * a select of the first matches, so the page never draws thousands of options nobody scrolls.
 */
export function ServerSelect({ label, servers, value, onChange, allLabel }: Props) {
  const [find, setFind] = useState('');
  const many = servers.length > SERVER_CHOICES_SHOWN;
  const shown = useMemo(() => {
    if (!many) return servers;
    const needle = find.trim().toLowerCase();
    const matches: ServerChoice[] = [];
    for (const server of servers) {
      if (matches.length === SERVER_CHOICES_SHOWN) break;
      if (!needle || server.label.toLowerCase().includes(needle) || server.serverId.toLowerCase().includes(needle))
        matches.push(server);
    }
    // The chosen server stays an option, or the select would show another than the one chosen.
    const chosen =
      value && !matches.some((server) => server.serverId === value) && servers.find((s) => s.serverId === value);
    return chosen ? [chosen, ...matches] : matches;
  }, [many, servers, find, value]);

  const select = (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.target.value)}>
          {allLabel !== undefined && <option value="">{allLabel}</option>}
          {shown.map((server) => (
            <option key={server.serverId} value={server.serverId}>
              {server.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {many && (
        <Field.HelperText>
          {shown.length === 0
            ? SERVER_SELECT_TEXT.none(servers.length)
            : SERVER_SELECT_TEXT.shown(shown.length, servers.length)}
        </Field.HelperText>
      )}
    </Field.Root>
  );
  if (!many) return select;
  return (
    <Stack gap="1.5">
      <Field.Root>
        <Field.Label>{SERVER_SELECT_TEXT.find(label)}</Field.Label>
        <Input
          size="sm"
          type="search"
          value={find}
          placeholder={SERVER_SELECT_TEXT.findPlaceholder}
          onChange={(event) => setFind(event.target.value)}
        />
      </Field.Root>
      {select}
    </Stack>
  );
}
