/**
 * The game script's cost inside the game: `npm run bench -- game-script [--runs N]`.
 *
 * The integration script as the loader serves it runs in the Roblox emulation (wasmoon) against a
 * stand-in Moonrelay on 127.0.0.1 (server/test/roblox-emulation), sending plain pings as fast as its
 * pacing allows. Measured: the real time spent running Lua per ping (collecting the player's data
 * among 1, 50 and 100 players, encoding the ping, reading its answer), against the 1-player game as
 * the baseline; and the Lua time of a command printing 150 KB of binary output (every byte invalid
 * UTF-8: cut, cleaned and sent), against 150 KB of plain text as the baseline. Target: the binary
 * case under 50 ms. Medians of N samples, all measured in this run.
 */
import { parseArgs } from 'node:util';
import { renderGameIntegration } from '../server/src/modules/game/integration-scripts.ts';
import { startEmulatedGame, type EmulatedGame } from '../server/test/roblox-emulation/emulated-game.ts';
import { startFakeMoonrelay, type FakeMoonrelay } from '../server/test/roblox-emulation/fake-moonrelay.ts';
import { fmt, median, positiveInteger } from './support/stats.ts';

const PINGS_PER_SAMPLE = 10;
const BINARY_TARGET_MS = 50;

const players = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `Player${index + 1}`,
    userId: 1000 + index,
    position: { x: index, y: 5, z: 0 },
  }));

async function startScript(fake: FakeMoonrelay, playerCount: number): Promise<EmulatedGame> {
  // A hundred times real speed: the 2 s loop pings every 20 ms, so the samples are quick.
  const game = await startEmulatedGame({
    timeScale: 0.01,
    jobId: 'bench',
    players: players(playerCount),
    maxRunSeconds: 30,
  });
  const source = renderGameIntegration({ serverUrl: fake.url, apiKey: fake.apiKey });
  game.run(source.replace('longPoll = true,', 'longPoll = false,'), 'ServerScriptService.Moonrelay');
  await game.waitFor(() => fake.pings.length >= 3, 'the first pings', 30_000);
  return game;
}

/** Lua milliseconds per ping, one sample of PINGS_PER_SAMPLE pings each. */
async function perPingSamples(playerCount: number, runs: number): Promise<number[]> {
  const fake = await startFakeMoonrelay();
  const game = await startScript(fake, playerCount);
  const samples: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const [luaBefore, pingsBefore] = [game.luaMs, fake.pings.length];
      await game.waitFor(() => fake.pings.length >= pingsBefore + PINGS_PER_SAMPLE, 'pings', 60_000);
      samples.push((game.luaMs - luaBefore) / (fake.pings.length - pingsBefore));
    }
  } finally {
    await game.stop();
    await fake.close();
  }
  return samples;
}

/** Lua milliseconds from queuing a command that prints `luaString` until its result is sent. */
async function outputSamples(luaString: string, runs: number): Promise<number[]> {
  const fake = await startFakeMoonrelay();
  const game = await startScript(fake, 1);
  const samples: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const id = `print-${run}`;
      const luaBefore = game.luaMs;
      fake.queue({ id, type: 'execute', data: { code: `print(${luaString})` } });
      await game.waitFor(() => fake.results.some((result) => result.id === id), 'the result', 60_000);
      samples.push(game.luaMs - luaBefore);
    }
  } finally {
    await game.stop();
    await fake.close();
  }
  return samples;
}

export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '7' } } });
  const runs = positiveInteger('--runs', values.runs);

  // Warms wasmoon and the emulation, so the baseline is not measured cold.
  await perPingSamples(1, 2);
  console.log(`Lua time per ping (median of ${runs} samples of ${PINGS_PER_SAMPLE} pings)`);
  const baseline = median(await perPingSamples(1, runs));
  console.log(`  1 player:    ${fmt(baseline, 3)} ms (baseline)`);
  for (const count of [50, 100]) {
    const perPing = median(await perPingSamples(count, runs));
    console.log(`  ${count} players: ${fmt(perPing, 3)} ms (${fmt(perPing / baseline, 2)}x the baseline)`);
  }

  console.log(`\nLua time of a command printing 150 KB, until its result is sent (median of ${runs})`);
  const text = median(await outputSamples('string.rep("x", 150000)', runs));
  console.log(`  150 KB of text:   ${fmt(text, 2)} ms (baseline)`);
  const cases = [
    ['150 KB of byte 255', 'string.rep("\\255", 150000)'],
    // Stray continuation bytes: valid-looking UTF-8 parts that each still need the careful path.
    ['150 KB of byte 128', 'string.rep("\\128", 150000)'],
    [
      '150 KB of random bytes',
      'string.gsub(string.rep(".", 150000), ".", function() return string.char(math.random(0, 255)) end)',
    ],
  ];
  for (const [name, expression] of cases) {
    const binary = median(await outputSamples(expression!, runs));
    const verdict = binary < BINARY_TARGET_MS ? 'within' : 'OVER';
    console.log(
      `  ${name}: ${fmt(binary, 2)} ms (${fmt(binary / text, 2)}x the baseline; ${verdict} the ${BINARY_TARGET_MS} ms target)`,
    );
  }
}
