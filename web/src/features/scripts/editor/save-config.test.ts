import { describe, expect, it } from 'vitest';
import type { Script } from '@moonrelay/contract/scripts';
import {
  autoExecuteGamesText,
  gameConfig,
  gameFromTypedId,
  gameOfScript,
  initialScope,
  recentGames,
} from './save-config.ts';
import { storedScript } from './test-fixtures.ts';

describe('save configuration', () => {
  it("reads a typed id as the game 'Game {id}' with an integer universeId", () => {
    expect(gameFromTypedId(' 123 ')).toEqual({ id: '123', name: 'Game 123', universeId: 123 });
    expect(gameFromTypedId('')).toBeNull();
    expect(gameFromTypedId('12a')).toBeNull();
    expect(gameFromTypedId('-5')).toBeNull();
  });

  it('starts on specific when the script has a game, else current when there is one, else all', () => {
    const current = { id: '9', name: 'Current' };
    expect(initialScope(storedScript({ gameId: '42' }), current)).toBe('specific');
    expect(initialScope(storedScript({ gameId: '42' }), null)).toBe('specific');
    expect(initialScope(storedScript(), current)).toBe('current');
    expect(initialScope(null, current)).toBe('current');
    expect(initialScope(storedScript(), null)).toBe('all');
    expect(initialScope(null, undefined)).toBe('all');
  });

  it('saves every game as { all } and clears a game chosen before', () => {
    expect(gameConfig(null)).toEqual({
      gameId: null,
      gameName: null,
      gameImageUrl: null,
      autoExecuteGames: { all: { enabled: true } },
    });
  });

  it('saves one game as the script game and its only auto-execute entry', () => {
    const typed = gameFromTypedId('123');
    expect(gameConfig(typed)).toEqual({
      gameId: '123',
      gameName: 'Game 123',
      gameImageUrl: null,
      autoExecuteGames: { '123': { enabled: true, gameName: 'Game 123' } },
    });
    expect(gameConfig({ id: '7', name: 'Obby', imageUrl: 'https://img/7.png' })).toEqual({
      gameId: '7',
      gameName: 'Obby',
      gameImageUrl: 'https://img/7.png',
      autoExecuteGames: { '7': { enabled: true, gameName: 'Obby', gameImageUrl: 'https://img/7.png' } },
    });
  });

  it("lists the distinct games of the user's scripts, from their game and auto-execute entries", () => {
    const scripts = [
      storedScript({ id: 'a', gameId: '1', gameName: 'One', gameImageUrl: null }),
      storedScript({
        id: 'b',
        gameId: null,
        autoExecuteGames: {
          all: { enabled: true },
          '2': { enabled: true, gameName: 'Two', gameImageUrl: 'https://img/2.png' },
          '1': { enabled: false, gameImageUrl: 'https://img/1.png' },
        },
      }),
      storedScript({ id: 'c', gameId: '3', gameName: null }),
    ];
    expect(recentGames(scripts)).toEqual([
      { id: '1', name: 'One', imageUrl: 'https://img/1.png' },
      { id: '2', name: 'Two', imageUrl: 'https://img/2.png' },
      { id: '3', name: 'Game 3' },
    ]);
    expect(recentGames([])).toEqual([]);
  });

  it("reads the script's own game", () => {
    expect(gameOfScript(storedScript())).toBeNull();
    expect(gameOfScript(null)).toBeNull();
    expect(gameOfScript(storedScript({ gameId: '5', gameName: 'Five', gameImageUrl: 'https://img/5.png' }))).toEqual({
      id: '5',
      name: 'Five',
      imageUrl: 'https://img/5.png',
    });
  });

  it('says where a saved auto-execute script runs now, as the integration script reads its games', () => {
    const auto = (autoExecuteGames: Script['autoExecuteGames']) =>
      autoExecuteGamesText(storedScript({ isAutoExecute: true, autoExecuteGames }));
    expect(autoExecuteGamesText(storedScript({ isAutoExecute: false }))).toBeNull();
    expect(autoExecuteGamesText(null)).toBeNull();
    expect(auto(null)).toBe('all games');
    expect(auto({})).toBe('all games');
    expect(auto({ all: { enabled: true }, '5': { enabled: true } })).toBe('all games');
    expect(auto({ '5': { enabled: true, gameName: 'Five' } })).toBe('Five');
    expect(auto({ '5': { enabled: true }, '6': { enabled: false }, '7': { enabled: true, gameName: 'Obby' } })).toBe(
      'Game 5 and Obby',
    );
    expect(auto({ '1': { enabled: true }, '2': { enabled: true }, '3': { enabled: true } })).toBe(
      'Game 1, Game 2 and Game 3',
    );
    expect(auto({ '6': { enabled: false } })).toBe('no game');
  });
});
