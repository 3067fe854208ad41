import { describe, expect, it } from 'vitest';
import { savedScriptPlace, scriptPlaces } from './script-line.ts';

const SCRIPTS = [
  { id: 's1', name: 'Speed Boost' },
  { id: 's2', name: 'Arena' },
];

describe('where an error happened', () => {
  it('reads the chunk and line from the message and from both stack formats', () => {
    expect(
      scriptPlaces({
        text: "Speed Boost:12: attempt to index nil with 'Humanoid'",
        stack: "Speed Boost:12 function boost\nScript 'Arena', Line 7\nServerScriptService.Main, line 3",
      }),
    ).toEqual([
      { chunk: 'Speed Boost', line: 12 },
      { chunk: 'Speed Boost', line: 12 },
      { chunk: 'Arena', line: 7 },
      { chunk: 'ServerScriptService.Main', line: 3 },
    ]);
  });

  it("finds the first place in one of the user's saved scripts, by name or id", () => {
    const line = {
      text: 'ServerScriptService.Main:3: boom',
      stack: 'ServerScriptService.Main:3\nArena:40 function start',
    };
    expect(savedScriptPlace(line, SCRIPTS)).toEqual({ script: SCRIPTS[1], line: 40 });
    expect(savedScriptPlace({ text: 's1:5: bad', stack: null }, SCRIPTS)).toEqual({ script: SCRIPTS[0], line: 5 });
  });

  it("has nothing to open for the game's own scripts or for code sent from the dashboard", () => {
    expect(savedScriptPlace({ text: 'Workspace.Door:9: locked', stack: 'Workspace.Door:9' }, SCRIPTS)).toBeNull();
    expect(
      savedScriptPlace({ text: 'Moonrelay:2: oops', stack: 'Moonrelay:2' }, [{ id: 's9', name: 'Moonrelay' }]),
    ).toBeNull();
    expect(savedScriptPlace({ text: 'no place here', stack: null }, SCRIPTS)).toBeNull();
  });
});
