import { screen } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { PageHeading } from './PageHeading.tsx';

function TwoScreens() {
  const [screenName, setScreenName] = useState<'Dashboard' | 'none'>('Dashboard');
  return (
    <>
      {screenName === 'Dashboard' && <PageHeading>Dashboard</PageHeading>}
      <button onClick={() => setScreenName('none')}>Leave</button>
    </>
  );
}

describe('a screen heading', () => {
  it("is the screen's h1 and names the browser tab after it", () => {
    renderWithProviders(<PageHeading>Script Editor</PageHeading>);
    expect(screen.getByRole('heading', { level: 1, name: 'Script Editor' })).toBeInTheDocument();
    expect(document.title).toBe('Script Editor · Moonrelay');
  });

  it('names the tab by its title when the heading carries more than the name', () => {
    renderWithProviders(<PageHeading title="My Scripts">My Scripts (3)</PageHeading>);
    expect(screen.getByRole('heading', { level: 1, name: 'My Scripts (3)' })).toBeInTheDocument();
    expect(document.title).toBe('My Scripts · Moonrelay');
  });

  it('gives the tab back to the app name when the screen goes', async () => {
    renderWithProviders(<TwoScreens />);
    expect(document.title).toBe('Dashboard · Moonrelay');
    await userEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(document.title).toBe('Moonrelay');
  });
});
