import { Box, Checkbox, Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import {
  ROLE_LABELS,
  ROLE_PERMISSIONS,
  TEAM_PERMISSION_DESCRIPTIONS,
  TEAM_PERMISSIONS,
  TEAM_ROLES,
  type TeamPermission,
} from '@moonrelay/contract/teams';
import { PRESET_ROLES, presetAllowed, type GrantChoice } from '../grant.ts';
import { TEAM_TEXT } from '../team-text.ts';

/**
 * The permissions' list: set once on its container, so a row's look does not depend on props of
 * its own; a permission the person cannot give is told by the checkbox's own disabled state.
 */
const PERMISSION_LIST_CSS = {
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  maxH: '20rem',
  overflowY: 'auto',
  pe: '1',
  '& .permission-name': { fontFamily: 'mono', fontWeight: 'semibold', overflowWrap: 'anywhere' },
  '& .permission-description': { display: 'block', fontWeight: 'normal', color: 'fg.muted', fontSize: 'sm' },
} as const;

interface Props {
  value: GrantChoice;
  onChange(choice: GrantChoice): void;
  /** What the person holds: the most they can give. */
  held: ReadonlySet<TeamPermission>;
}

/**
 * A role preset, or the permissions one by one with what each allows. Presets and permissions the
 * person does not hold are offered disabled, saying why: the server would refuse them.
 */
export function GrantFields({ value, onChange, held }: Props) {
  const toggle = (permission: TeamPermission, on: boolean) =>
    onChange({
      role: 'custom',
      permissions: on ? [...value.permissions, permission] : value.permissions.filter((p) => p !== permission),
    });

  return (
    <Stack gap="4">
      <Field.Root>
        <Field.Label>{TEAM_TEXT.roleLabel}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field
            value={value.role}
            onChange={(event) => {
              const role = TEAM_ROLES.find((option) => option === event.target.value) ?? 'custom';
              // Ticking one by one starts from what the chosen preset held.
              onChange({ role, permissions: role === 'custom' ? value.permissions : ROLE_PERMISSIONS[role] });
            }}
          >
            {PRESET_ROLES.map((role) => (
              <option key={role} value={role} disabled={!presetAllowed(held, role)}>
                {presetAllowed(held, role) ? ROLE_LABELS[role] : `${ROLE_LABELS[role]} (${TEAM_TEXT.roleNotHeld})`}
              </option>
            ))}
            <option value="custom">{TEAM_TEXT.oneByOne}</option>
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {value.role !== 'custom' && (
          <Field.HelperText>
            {TEAM_TEXT.includes}: {ROLE_PERMISSIONS[value.role].join(', ')}
          </Field.HelperText>
        )}
      </Field.Root>
      {value.role === 'custom' && (
        <Box as="fieldset">
          <Text as="legend" fontWeight="medium" fontSize="sm" mb="2">
            {TEAM_TEXT.permissionsLegend}
          </Text>
          <Box css={PERMISSION_LIST_CSS}>
            {TEAM_PERMISSIONS.map((permission) => (
              <Checkbox.Root
                key={permission}
                alignItems="start"
                checked={value.permissions.includes(permission)}
                disabled={!held.has(permission)}
                onCheckedChange={(event) => toggle(permission, event.checked === true)}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control mt="0.5" />
                <Checkbox.Label>
                  <span className="permission-name">{permission}</span>
                  <span className="permission-description">
                    {held.has(permission)
                      ? TEAM_PERMISSION_DESCRIPTIONS[permission]
                      : `${TEAM_PERMISSION_DESCRIPTIONS[permission]}. ${TEAM_TEXT.notHeld}.`}
                  </span>
                </Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Box>
          {value.permissions.length === 0 && (
            <Text fontSize="sm" color="fg.muted" mt="2">
              {TEAM_TEXT.nonePicked}
            </Text>
          )}
        </Box>
      )}
    </Stack>
  );
}
