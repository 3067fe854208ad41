import { Badge, Code, Table, Text } from '@chakra-ui/react';
import { useFocusableWhenScrolling } from '../../../lib/scroll-focus.ts';
import type { Field } from '../docs-model.ts';

/** Parameters or body fields: name, type, whether required, and their limits. */
export function FieldTable({ fields, label }: { fields: Field[]; label: string }) {
  const scroll = useFocusableWhenScrolling<HTMLDivElement>();
  return (
    <Table.ScrollArea
      ref={scroll.ref}
      tabIndex={scroll.tabIndex}
      role={scroll.tabIndex === 0 ? 'region' : undefined}
      aria-label={scroll.tabIndex === 0 ? label : undefined}
      focusVisibleRing="inside"
      borderWidth="1px"
      borderRadius="md"
    >
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Notes</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {fields.map((field) => (
            <Table.Row key={field.name}>
              <Table.Cell whiteSpace="nowrap">
                <Code size="sm">{field.name}</Code>{' '}
                {field.required ? (
                  <Badge size="xs" colorPalette="red" variant="subtle">
                    required
                  </Badge>
                ) : (
                  <Badge size="xs" variant="subtle">
                    optional
                  </Badge>
                )}
              </Table.Cell>
              <Table.Cell>
                <Text fontFamily="mono" fontSize="xs" wordBreak="break-word">
                  {field.type}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <Text fontSize="xs" color="fg.muted">
                  {[field.description, ...field.notes].filter(Boolean).join('; ')}
                </Text>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
