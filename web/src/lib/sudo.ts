import { create } from 'zustand';
import type { SudoMethod } from '@moonrelay/contract/sessions';
import { useSession } from './session.ts';

/**
 * Sudo mode, the browser's side (docs/decisions/044): a protected change asked without a proof from
 * the last 10 minutes answers 403 `sudo_required`. The API client then waits here while one dialog
 * (SudoDialog, mounted once for the signed-in app) asks the user to confirm it is them; the proof
 * lets every waiting call be sent again, a cancel rejects them all. However many calls meet the 403
 * at once, they share one dialog and one proof.
 */
export interface SudoPrompt {
  /** How this account can prove itself ('sign-in': only by signing in again). */
  methods: SudoMethod[];
  /** Tells one opening of the dialog from the next. */
  serial: number;
}

interface SudoPromptState {
  prompt: SudoPrompt | null;
}

/** The dialog's state: open while `prompt` is set. */
export const useSudoPrompt = create<SudoPromptState>(() => ({ prompt: null }));

interface Waiter {
  resolve: () => void;
  reject: () => void;
}

let waiters: Waiter[] = [];
let openings = 0;
/** Counts the proofs made in this tab: a call sent before the latest one need not ask again. */
let proofs = 0;

/** The number of proofs so far, read when a call goes out. */
export const proofCount = (): number => proofs;

/**
 * Waits until the user proved it is them (resolves) or gave up (rejects with `onCancel()`'s error).
 * A dialog already open is joined, not opened again.
 */
export function waitForSudo(methods: SudoMethod[], onCancel: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    waiters.push({ resolve, reject: () => reject(onCancel()) });
    if (!useSudoPrompt.getState().prompt) useSudoPrompt.setState({ prompt: { methods, serial: ++openings } });
  });
}

function settle(how: (waiter: Waiter) => void): void {
  const settled = waiters;
  waiters = [];
  useSudoPrompt.setState({ prompt: null });
  for (const waiter of settled) how(waiter);
}

/** The proof was accepted: every waiting call is sent again. */
export function sudoProved(): void {
  proofs += 1;
  settle((waiter) => waiter.resolve());
}

/** The user cancelled (or is signing in again): every waiting call fails. */
export function sudoCancelled(): void {
  settle((waiter) => waiter.reject());
}

// A session that ends (or changes hands) takes its waiting changes with it: they were asked by a
// user who is no longer signed in here.
useSession.subscribe((state, previous) => {
  if (state.token !== previous.token && useSudoPrompt.getState().prompt) sudoCancelled();
});
