import { Heading } from '@chakra-ui/react';

export default function SettingsPage() {
  return <Heading>Settings</Heading>;
}
