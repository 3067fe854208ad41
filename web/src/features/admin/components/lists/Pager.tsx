import { Button, HStack, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { ADMIN_PAGE_SIZE } from '../../api/admin-query.ts';

interface Props {
  page: number;
  total: number;
  onPage(page: number): void;
}

/** Previous / Next under a list longer than one page (50 rows). */
export function Pager({ page, total, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
  if (pages <= 1 && page === 1) return null;
  return (
    <HStack justify="flex-end" gap="3">
      <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft /> Previous
      </Button>
      <Text fontSize="sm" color="fg.muted">
        Page {page} of {pages}
      </Text>
      <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next <ChevronRight />
      </Button>
    </HStack>
  );
}
