import { defaultSystem } from '@chakra-ui/react';

/**
 * Chakra's design system: its tokens, recipes and the CSS variables they make, built once when this
 * module is evaluated. Its own module so start-up (start-app.ts) can evaluate it in a task of its own.
 */
export const uiSystem = defaultSystem;
