import { Button, Icon, Stack, Text } from '@chakra-ui/react';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ADMIN_TEXT } from '../admin-text.ts';
import { PageHeading } from '../../../components/PageHeading.tsx';

/** What /admin shows anyone who is not an admin: a plain refusal and a way back. */
export function AdminsOnly() {
  return (
    <Stack align="center" gap="4" py="16" textAlign="center">
      <Icon as={ShieldAlert} boxSize="12" color="fg.muted" />
      <PageHeading>{ADMIN_TEXT.adminsOnlyTitle}</PageHeading>
      <Text color="fg.muted" maxW="md">
        {ADMIN_TEXT.adminsOnly}
      </Text>
      <Button asChild variant="outline">
        <Link to="/dashboard">Back to the dashboard</Link>
      </Button>
    </Stack>
  );
}
