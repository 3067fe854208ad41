import { Code } from '@chakra-ui/react';

/** A value shown as code (an API key, a URL), or a muted placeholder when there is none. */
export function CodeValue({ value, placeholder }: { value: string | null | undefined; placeholder: string }) {
  return (
    <Code flex="1" minW="0" px="3" py="2" fontSize="sm" wordBreak="break-all" color={value ? undefined : 'fg.muted'}>
      {value ?? placeholder}
    </Code>
  );
}
