import { Heading } from '@chakra-ui/react';

export default function EditorPage() {
  return <Heading>Editor</Heading>;
}
