import { describe, expect, it } from 'vitest';
import { createUser, signInAs } from './support/app.ts';
import { screenshot } from './support/browser.ts';
import { expectHidden, expectPath, expectVisible } from './support/expect.ts';
import { browserSuite } from './support/suite.ts';
import { alertDialogNamed, expectSignedIn, expectToast, mainArea } from './support/ui.ts';

// Intervals down to one second, so the schedule's first run comes within the test.
const suite = browserSuite(async () => ({ SCHEDULE_MIN_INTERVAL_SECONDS: '1' }));

describe('schedules', () => {
  it('creates a schedule from the editor by keyboard, sees the next five runs first, then its first run', async () => {
    const page = await suite.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    const user = await createUser(suite.app);
    const script = await suite.app.call('POST', '/api/scripts', {
      token: user.token,
      body: { name: 'Ticker', code: 'print("tick from a schedule")' },
    });
    await signInAs(page, suite.app, user, `/editor?id=${script.body.id}`);
    await expectSignedIn(page, user.name);
    const section = mainArea(page).getByRole('region', { name: 'Schedules' });
    await expectVisible(section.getByText('No schedules yet.'));

    // Keyboard only: focus the button, open the form, fill it in, submit with Enter.
    await section.getByRole('button', { name: 'Add schedule' }).focus();
    await page.keyboard.press('Enter');
    const form = section.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Runs').focus();
    await page.keyboard.press('ArrowDown');
    await expectVisible(form.getByLabel('Every (seconds)'));
    await form.getByLabel('Every (seconds)').focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2');
    // The next five run times, as the server works them out, before anything is saved.
    await expect.poll(() => form.getByTestId('schedule-preview').getByRole('listitem').count()).toBe(5);
    await screenshot(page, 'schedules-form-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'schedules-form-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Create schedule' }).focus();
    await page.keyboard.press('Enter');
    await expectToast(page, 'Schedule created');

    // Its first run shows up as its last run, linked to the run in Runs.
    const item = section.getByTestId('schedule');
    await expectVisible(item.getByText('Every 2 s'));
    await expect
      .poll(() => item.getByTestId('schedule-last-run').getByTestId('run-status').first().innerText(), {
        timeout: 15_000,
      })
      .toBe('Succeeded');
    await screenshot(page, 'schedules-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'schedules-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Paused by keyboard: the switch says so and no next run is shown.
    const running = item.getByRole('checkbox', { name: /^Running \(Every 2 s\)$/ });
    expect(await running.isChecked()).toBe(true);
    await running.focus();
    await page.keyboard.press('Space');
    const paused = item.getByRole('checkbox', { name: /^Paused \(Every 2 s\)$/ });
    await expectVisible(paused);
    expect(await paused.isChecked()).toBe(false);
    await expectVisible(item.getByText('Next run:').getByText('Paused'));

    const runs = await suite.app.call('GET', `/api/executions?scriptId=${script.body.id}`, { token: user.token });
    expect(runs.body.runs.length).toBeGreaterThan(0);
    expect(runs.body.runs.every((run: { startedBy: string }) => run.startedBy === 'schedule')).toBe(true);

    // Deleted after a confirmation.
    await item.getByRole('button', { name: /^Delete schedule/ }).focus();
    await page.keyboard.press('Enter');
    const confirm = alertDialogNamed(page, 'Delete this schedule?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Schedule deleted');
    await expectVisible(section.getByText('No schedules yet.'));

    // The run it made stays in Runs, started by the schedule.
    const lastRunId = runs.body.runs[0].id as string;
    await page.goto(`${suite.app.url}/runs?id=${lastRunId}`);
    await expectPath(page, '/runs', `?id=${lastRunId}`);
    await expectVisible(page.getByTestId('run-detail').getByText('Ticker', { exact: true }).first());
    await page.keyboard.press('Escape');
    await expectHidden(page.getByTestId('run-detail'));
  });
});
