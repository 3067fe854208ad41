import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { SERVER_CHOICES_SHOWN, SERVER_SELECT_TEXT, ServerSelect, type ServerChoice } from './ServerSelect.tsx';

const servers = (count: number): ServerChoice[] =>
  Array.from({ length: count }, (_, index) => ({
    serverId: `job-${String(index).padStart(5, '0')}`,
    label: `job-${String(index).padStart(5, '0')} · player${index}`,
  }));

/** The select as a screen keeps it: the value chosen is what it shows. */
function Chooser({ choices, allLabel }: { choices: ServerChoice[]; allLabel?: string }) {
  const [value, setValue] = useState('');
  return (
    <>
      <ServerSelect label="Server" servers={choices} value={value} onChange={setValue} allLabel={allLabel} />
      <output>chosen: {value || 'none'}</output>
    </>
  );
}

const options = () =>
  within(screen.getByRole('combobox', { name: 'Server' }))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the server select', () => {
  it('lists a few servers in a plain select, with no search field', async () => {
    renderWithProviders(<Chooser choices={servers(3)} allLabel="All servers" />);
    expect(options()).toEqual(['All servers', 'job-00000 · player0', 'job-00001 · player1', 'job-00002 · player2']);
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Server' }), 'job-00002');
    expect(screen.getByText('chosen: job-00002')).toBeInTheDocument();
  });

  it('lists the first matches of thousands, and a search finds any other', async () => {
    renderWithProviders(<Chooser choices={servers(5000)} allLabel="All servers" />);
    expect(options()).toHaveLength(SERVER_CHOICES_SHOWN + 1);
    expect(screen.getByText(SERVER_SELECT_TEXT.shown(SERVER_CHOICES_SHOWN, 5000))).toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Server') }), 'player4321');
    expect(options()).toEqual(['All servers', 'job-04321 · player4321']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Server' }), 'job-04321');
    expect(screen.getByText('chosen: job-04321')).toBeInTheDocument();

    // Searching on keeps the chosen server an option, so the select still shows it.
    await userEvent.clear(screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Server') }));
    await userEvent.type(screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Server') }), 'JOB-0499');
    expect(options()).toEqual([
      'All servers',
      'job-04321 · player4321',
      ...Array.from({ length: 10 }, (_, i) => `job-0499${i} · player499${i}`),
    ]);
    expect(screen.getByRole('combobox', { name: 'Server' })).toHaveValue('job-04321');

    await userEvent.type(screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Server') }), 'x');
    expect(screen.getByText(SERVER_SELECT_TEXT.shown(1, 5000))).toBeInTheDocument();
  });

  it('says so when no server matches', async () => {
    renderWithProviders(<Chooser choices={servers(SERVER_CHOICES_SHOWN + 1)} />);
    await userEvent.type(screen.getByRole('searchbox', { name: SERVER_SELECT_TEXT.find('Server') }), 'nobody');
    expect(screen.getByText(SERVER_SELECT_TEXT.none(SERVER_CHOICES_SHOWN + 1))).toBeInTheDocument();
  });
});
