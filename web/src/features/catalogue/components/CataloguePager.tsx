import { Button, HStack, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { CATALOGUE_TEXT } from '../catalogue-text.ts';

interface Props {
  page: number;
  hasNext: boolean;
  onPage(page: number): void;
}

/** Previous / 'Page N' / Next (spec section 2); Previous is off on page 1, Next without a next page. */
export function CataloguePager({ page, hasNext, onPage }: Props) {
  return (
    <HStack justify="center" gap="4" as="nav" aria-label="Pages">
      <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft size={16} /> {CATALOGUE_TEXT.previous}
      </Button>
      <Text fontSize="sm" data-testid="page-number">
        {CATALOGUE_TEXT.page(page)}
      </Text>
      <Button size="sm" variant="outline" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {CATALOGUE_TEXT.next} <ChevronRight size={16} />
      </Button>
    </HStack>
  );
}
