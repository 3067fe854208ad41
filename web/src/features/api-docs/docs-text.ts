/** The API docs page's texts (spec section 2, API Docs). */
export const DOCS_COPIED_TITLE = 'Copied to clipboard';
export const DOCS_TITLE = 'API Documentation';
export const DOCS_SUBTITLE =
  'Call Moonrelay from your own tools and your game: every endpoint, what it takes and answers, with examples that work.';
export const API_KEY_PLACEHOLDER_TEXT = 'Sign in to see your API key';

export const METHOD_COLORS: Record<string, string> = {
  GET: 'green',
  POST: 'blue',
  PUT: 'orange',
  DELETE: 'red',
};

export const EXAMPLE_LANGUAGES = [
  { id: 'curl', label: 'cURL' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'lua', label: 'Lua' },
] as const;
