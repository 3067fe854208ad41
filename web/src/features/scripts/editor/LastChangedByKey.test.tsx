import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { LastChangedByKey } from './LastChangedByKey.tsx';

describe('LastChangedByKey', () => {
  it('names the key that made the last change', () => {
    renderWithProviders(<LastChangedByKey keyName="Game (integration scripts)" />);
    expect(screen.getByText(/Last changed by key/)).toHaveTextContent('Last changed by key Game (integration scripts)');
  });

  it('says nothing when the last change was made signed in', () => {
    renderWithProviders(<LastChangedByKey keyName={null} />);
    expect(screen.queryByText(/Last changed by key/)).not.toBeInTheDocument();
  });
});
