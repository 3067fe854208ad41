import { APP_NAME, APP_VERSION } from '@moonrelay/contract/constants';

/**
 * The first screen of the web app. The dashboard screens are built on top of the API described by
 * /api/openapi.json; until they land, this page says so plainly and links to that document.
 */
export function App() {
  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        background: '#0f1117',
        color: '#e6e6e6',
        minHeight: '100vh',
        padding: '3rem',
      }}
    >
      <h1>
        {APP_NAME} <small style={{ color: '#8b8fa3' }}>{APP_VERSION}</small>
      </h1>
      <p>Write, keep and run Luau scripts in your own Roblox game.</p>
      <p>
        The dashboard is coming with the next release. The API is live: see the{' '}
        <a href="/api/openapi.json" style={{ color: '#7aa2ff' }}>
          OpenAPI document
        </a>
        .
      </p>
    </main>
  );
}
