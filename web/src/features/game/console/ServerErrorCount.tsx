import { Link, Text } from '@chakra-ui/react';
import { CircleAlert } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { countText } from '../../../components/console/console-format.ts';
import { useServerErrorCount } from '../api/console.ts';

/** A game server's errors in the last hour, on its card; a click opens the console at them. */
export function ServerErrorCount({ serverId }: { serverId: string | undefined }) {
  const count = useServerErrorCount(serverId);
  if (count === undefined || serverId === undefined) return null;
  if (count === 0) {
    return (
      <Text fontSize="sm" color="fg.muted" data-testid="server-errors">
        No errors in the last hour
      </Text>
    );
  }
  return (
    <Link asChild color="fg.error" fontSize="sm" fontWeight="medium" data-testid="server-errors">
      <RouterLink to={`/console?server=${encodeURIComponent(serverId)}&level=error`}>
        <CircleAlert size={14} /> {countText(count, 'error', 'errors')} in the last hour
      </RouterLink>
    </Link>
  );
}
