import { HStack, Text } from '@chakra-ui/react';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { diagnosticsSummary } from './diagnostics.ts';
import type { LuaCheck } from './useLuaCheck.ts';

interface Props {
  /** The latest check's answer; null when there is nothing to check (blank code) or no answer yet. */
  result: LuaCheck | null;
  /** The code on screen is waiting for its check. */
  pending: boolean;
}

/** One line under the editor: "No syntax errors", "2 syntax errors — line 3: …", or why there is no check. */
export function SyntaxSummary({ result, pending }: Props) {
  let content: { icon?: typeof Info; text: string; color: string } | null = null;
  if (result?.status === 'checked') {
    const ok = result.diagnostics.length === 0;
    content = {
      icon: ok ? CircleCheck : CircleAlert,
      text: diagnosticsSummary(result.diagnostics),
      color: ok ? 'fg.success' : 'fg.error',
    };
  } else if (result?.status === 'unavailable') {
    content = { icon: Info, text: result.message, color: 'fg.muted' };
  } else if (pending) {
    content = { text: 'Checking syntax…', color: 'fg.muted' };
  }

  return (
    <HStack
      role="status"
      data-testid="syntax-summary"
      gap="1.5"
      minH="5"
      fontSize="sm"
      color={content?.color}
      aria-busy={pending || undefined}
    >
      {content?.icon && <content.icon size={14} aria-hidden />}
      {content && (
        <Text truncate title={content.text}>
          {content.text}
        </Text>
      )}
    </HStack>
  );
}
