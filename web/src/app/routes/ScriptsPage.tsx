import { Heading } from '@chakra-ui/react';

export default function ScriptsPage() {
  return <Heading>Scripts</Heading>;
}
