import { Heading, type HeadingProps } from '@chakra-ui/react';
import { usePageTitle } from '../lib/page-title.ts';

interface PageHeadingProps extends Omit<HeadingProps, 'as' | 'title'> {
  /** The screen's name for the browser tab; defaults to the heading when that is plain text. */
  title?: string;
}

/**
 * A screen's one top-level heading (an `<h1>`), which also names the browser tab after the screen.
 */
export function PageHeading({ title, children, ...props }: PageHeadingProps) {
  usePageTitle(title ?? (typeof children === 'string' ? children : undefined));
  return (
    <Heading as="h1" size="2xl" {...props}>
      {children}
    </Heading>
  );
}
