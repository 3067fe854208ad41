import { Card, Switch } from '@chakra-ui/react';
import { useTheme } from '../../../lib/theme.ts';
import { notify } from '../../../lib/toaster.tsx';

export function PreferencesCard() {
  const theme = useTheme((state) => state.theme);
  const setTheme = useTheme((state) => state.setTheme);
  const change = (dark: boolean) => {
    setTheme(dark ? 'dark' : 'light');
    notify({ title: 'Theme Updated', description: dark ? 'Dark mode enabled' : 'Light mode enabled' });
  };
  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Preferences</Card.Title>
        <Card.Description>How the dashboard looks on this device.</Card.Description>
      </Card.Header>
      <Card.Body>
        <Switch.Root checked={theme === 'dark'} onCheckedChange={(event) => change(event.checked)}>
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>Dark mode</Switch.Label>
        </Switch.Root>
      </Card.Body>
    </Card.Root>
  );
}
