import { create } from 'zustand';
import type { BatchUser } from './live/admin-live-store.ts';

/**
 * The users ticked in the Users tab, the targets of Mass Execution. Kept by id with their names, so
 * a selection made on one page of users survives turning to another and the Mass Execution tab can
 * name everyone selected.
 */
interface SelectionState {
  selected: Record<string, BatchUser>;
  toggle(user: BatchUser, selected: boolean): void;
  setMany(users: BatchUser[], selected: boolean): void;
  clear(): void;
}

export const useSelection = create<SelectionState>((set) => ({
  selected: {},
  toggle: (user, selected) =>
    set((state) => {
      const { [user.id]: _dropped, ...others } = state.selected;
      return { selected: selected ? { ...others, [user.id]: user } : others };
    }),
  setMany: (users, selected) =>
    set((state) => {
      const next = { ...state.selected };
      for (const user of users) {
        if (selected) next[user.id] = user;
        else delete next[user.id];
      }
      return { selected: next };
    }),
  clear: () => set({ selected: {} }),
}));
