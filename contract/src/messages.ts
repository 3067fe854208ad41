/**
 * Texts the user reads. Validation messages are spec section 5 word for word; error texts are the
 * documented API error bodies of section 8. Both the server and the web app import them from here.
 */

export const VALIDATION = {
  emailOrUsernameRequired: 'Email or username is required',
  passwordRequired: 'Password is required',
  invalidEmail: 'Invalid email address',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be less than 30 characters',
  usernameCharacters: 'Username can only contain letters, numbers, underscores, and hyphens',
  nameRequired: 'Name is required',
  nameTooLong: 'Name must be at most 100 characters',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 256 characters',
  passwordsDontMatch: "Passwords don't match",
  emailTooLong: 'Email must be at most 254 characters',
  scriptNameRequired: 'Script name is required',
  scriptNameTooLong: 'Script name must be at most 200 characters',
  scriptDescriptionTooLong: 'Description must be at most 2000 characters',
  scriptCodeRequired: 'Code is required',
  scriptCodeTooLarge: 'Code must be at most 1 MiB',
  scriptUpdateEmpty: 'Nothing to update: send at least one script field',
  autoExecuteGamesTooMany: 'autoExecuteGames may hold at most 100 games',
} as const;

export const ERRORS = {
  authenticationFailed: 'Authentication failed',
  invalidApiKey: 'Invalid API key',
  invalidCredentials: 'Invalid credentials',
  scriptNotFound: 'Script not found',
  gameNotConnected: 'Game not connected',
  sessionRequired: 'This action needs a signed-in session; an API key cannot be used for it',
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  tooManyRequests: 'Too many requests. Please slow down and try again shortly.',
  tooManyLoginAttempts: 'Too many failed login attempts. Please try again later.',
  malformedJson: 'Malformed JSON in request body',
  bodyTooLarge: 'Request body is too large',
  bodyNotJson: 'Request body must be JSON (Content-Type: application/json)',
  bodyNotObject: 'Request body must be a JSON object',
  notFound: 'Not found',
  internal: 'Internal server error',
  luaSyntaxPrefix: 'Lua syntax error: ',
  gameNotConnectedInstructions:
    'Connect your game first: enable HTTP requests (Game Settings > Security), add the Moonrelay integration script to a server Script, and start the game.',
} as const;
