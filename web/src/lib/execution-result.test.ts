import { describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { ApiError } from './api-client.ts';
import { executionFailure, executionOutcome, outputPreview } from './execution-result.ts';

describe('outputPreview', () => {
  it("trims the output, or says 'No output'", () => {
    expect(outputPreview('  hi\n')).toBe('hi');
    expect(outputPreview('')).toBe('No output');
    expect(outputPreview(' \n ')).toBe('No output');
    expect(outputPreview(undefined)).toBe('No output');
  });

  it('shortens long output to about 200 characters', () => {
    const preview = outputPreview('x'.repeat(5000));
    expect(preview).toHaveLength(200);
    expect(preview.endsWith('…')).toBe(true);
    expect(outputPreview('y'.repeat(200))).toBe('y'.repeat(200));
  });
});

describe('executionOutcome', () => {
  it("answers 'Game Not Connected' with the instructions, and puts the error and instructions in the pane", () => {
    const outcome = executionOutcome({
      success: false,
      queued: false,
      gameConnected: false,
      output: '',
      error: ERRORS.gameNotConnected,
      instructions: ERRORS.gameNotConnectedInstructions,
      target: 'game',
      durationMs: 0,
    });
    expect(outcome.notice).toEqual({
      type: 'error',
      title: 'Game Not Connected',
      description: ERRORS.gameNotConnectedInstructions,
    });
    expect(outcome.execution).toEqual({
      status: 'error',
      target: 'game',
      error: `${ERRORS.gameNotConnected}\n${ERRORS.gameNotConnectedInstructions}`,
    });
  });

  it("falls back to the spec's text when the server gives no instructions", () => {
    expect(executionOutcome({ gameConnected: false }).notice.description).toBe(
      'Please connect your game client to execute scripts',
    );
  });

  it("answers 'Script Queued' when the game took the script and its result is still to come", () => {
    const outcome = executionOutcome({ success: true, error: null, queued: true, gameConnected: true, pending: true });
    expect(outcome.notice).toEqual({
      type: 'info',
      title: 'Script Queued',
      description: 'Script has been sent to your game for execution',
    });
    expect(outcome.execution.status).toBe('queued');
  });

  it('answers a cloud run sent to Roblox, whose pane then follows it (no game words)', () => {
    const outcome = executionOutcome(
      { success: true, pending: true, queued: true, target: 'cloud', executionId: 'e1', cloudState: 'waiting' },
      'cloud',
    );
    expect(outcome.notice).toEqual({
      type: 'info',
      title: 'Sent to Roblox',
      description: 'Its log lines show below as Roblox runs it.',
    });
    expect(outcome.execution).toEqual({ status: 'queued', target: 'cloud' });
  });

  it('reports a game run whose result came back within the wait as the result, not as queued', () => {
    const ran = { queued: true, gameConnected: true, target: 'game' as const, durationMs: 4 };
    const succeeded = executionOutcome({ ...ran, success: true, output: 'hi\n', error: null });
    expect(succeeded.notice).toEqual({ title: 'Script Executed', description: 'hi' });
    expect(succeeded.execution).toMatchObject({ status: 'success', target: 'game', output: 'hi\n' });
    const failed = executionOutcome({ ...ran, success: false, output: '', error: 'attempt to index nil' });
    expect(failed.notice.description).toBe('Failed to execute script. Please try again. (attempt to index nil)');
    expect(failed.execution).toMatchObject({ status: 'error', error: 'attempt to index nil' });
  });

  it('reports a sandbox failure with its own error and the limit that ended it', () => {
    const outcome = executionOutcome({
      success: false,
      output: '',
      error: 'Instruction limit exceeded',
      target: 'sandbox',
      durationMs: 1256,
      limit: 'instructions',
    });
    expect(outcome.notice).toEqual({
      type: 'error',
      title: 'Execution Failed',
      description: 'Instruction limit exceeded',
    });
    expect(outcome.execution).toMatchObject({
      status: 'error',
      target: 'sandbox',
      limit: 'instructions',
      durationMs: 1256,
      error: 'Instruction limit exceeded',
    });
  });

  it('reports any other failed run with the spec sentence and the reason', () => {
    expect(executionOutcome({ success: false, error: 'Lua syntax error: unexpected symbol' }).notice).toEqual({
      type: 'error',
      title: 'Execution Failed',
      description: 'Failed to execute script. Please try again. (Lua syntax error: unexpected symbol)',
    });
  });

  it("answers 'Script Executed' with a preview of the output, and labels the target asked for", () => {
    const outcome = executionOutcome({ success: true, output: `  ${'z'.repeat(300)}  `, durationMs: 3 }, 'sandbox');
    expect(outcome.notice.title).toBe('Script Executed');
    expect(outcome.notice.description).toHaveLength(200);
    expect(outcome.execution).toMatchObject({ status: 'success', target: 'sandbox', durationMs: 3 });
  });
});

describe('executionFailure', () => {
  it("uses the server's error text, such as a Lua syntax error", () => {
    const error = new ApiError(
      400,
      JSON.stringify({ error: 'Lua syntax error: 2:11: Incomplete statement: expected assignment or a function call' }),
    );
    expect(executionFailure(error, 'sandbox')).toEqual({
      notice: {
        type: 'error',
        title: 'Execution Failed',
        description:
          'Failed to execute script. Please try again. (Lua syntax error: 2:11: Incomplete statement: expected assignment or a function call)',
      },
      execution: {
        status: 'error',
        target: 'sandbox',
        error: 'Lua syntax error: 2:11: Incomplete statement: expected assignment or a function call',
      },
    });
  });

  it('has the spec sentence alone when the call failed without a reason', () => {
    expect(executionFailure(new TypeError('Failed to fetch')).notice.description).toBe(
      'Failed to execute script. Please try again.',
    );
  });
});
