import { Button, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';
import { PageHeading } from '../../components/PageHeading.tsx';

export function NotFoundPage() {
  return (
    <Stack align="center" gap="4" py="12" textAlign="center">
      <PageHeading size="4xl" title="Page Not Found">
        404
      </PageHeading>
      <Text fontSize="lg">Page Not Found</Text>
      <Button asChild variant="outline">
        <Link to="/dashboard">Back to the dashboard</Link>
      </Button>
    </Stack>
  );
}
