import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <Stack align="center" gap="4" py="12" textAlign="center">
      <Heading size="4xl">404</Heading>
      <Text fontSize="lg">Page Not Found</Text>
      <Button asChild variant="outline">
        <Link to="/dashboard">Back to the dashboard</Link>
      </Button>
    </Stack>
  );
}
