import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testScript } from '../../../test/fixtures.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import { ExecutorScriptList } from './ExecutorScriptList.tsx';

const scripts = Array.from({ length: 1000 }, (_, i) =>
  testScript({ id: `script-${i}`, name: `Script ${i}`, description: i % 2 ? `Does ${i}` : undefined }),
);

describe("the executor's script list", () => {
  it('draws the rows its 200px area shows, not all of a thousand scripts', async () => {
    const onRun = vi.fn();
    renderWithProviders(
      <ExecutorScriptList scripts={scripts} failed={false} read={{ allowed: true }} disabled={false} onRun={onRun} />,
    );
    const list = screen.getByTestId('executor-scripts');
    const rows = within(list).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.length).toBeLessThan(10);
    // Each row says where it is in the whole list, for screen readers.
    expect(rows[0]).toHaveAttribute('aria-posinset', '1');
    expect(rows[0]).toHaveAttribute('aria-setsize', '1000');
    expect(within(rows[0]!).getByText('No description')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Does 1')).toBeInTheDocument();

    await userEvent.click(within(list).getByRole('button', { name: 'Run Script 1' }));
    expect(onRun).toHaveBeenCalledWith(scripts[1]);
  });
});
