import { describe, expect, it } from 'vitest';
import { findExecutorFunctions, stripCommentsAndStrings } from './executor-functions.ts';

describe('executor-only functions', () => {
  it('finds the common executor calls, each once', () => {
    const code = [
      'local src = game:HttpGet("https://example.com/hub.lua")',
      'loadstring(game:HttpGetAsync(url))()',
      'getgenv().Settings = {}',
      'local old = hookfunction(print, newcclosure(function(...) end))',
      'syn.request({ Url = "https://example.com" })',
      'setclipboard("discord.gg/x")',
      'local line = Drawing.new("Line")',
      'local up = debug.getupvalue(f, 1)',
      'writefile("hub.json", "{}")',
      'local me = game.Players.LocalPlayer',
    ].join('\n');
    expect(findExecutorFunctions(code)).toEqual([
      'game:HttpGet',
      'syn.*',
      'Drawing.new',
      'debug.getupvalue',
      'getgenv',
      'hookfunction',
      'newcclosure',
      'setclipboard',
      'writefile',
      'LocalPlayer',
    ]);
  });

  it('finds nothing in plain server code', () => {
    const code = [
      'local Players = game:GetService("Players")',
      'local HttpService = game:GetService("HttpService")',
      'print(HttpService:GetAsync("https://example.com"))',
      'for _, player in Players:GetPlayers() do print(player.Name) end',
      'local t = { getgenv = 1, writefile=2 }',
      'print(t.getgenv, obj:hookfunction())',
    ].join('\n');
    expect(findExecutorFunctions(code)).toEqual([]);
  });

  it('ignores names inside comments and strings, long brackets included', () => {
    const code = [
      '-- getgenv() would be nice',
      '--[[ hookfunction(print)',
      '     game:HttpGet("x") ]]',
      '--[==[ syn.request ]] still a comment ]==]',
      'print("getgenv()", \'setclipboard\', `writefile {1}`)',
      'local s = [[ game:HttpGet("x") ]]',
      'local e = "escaped \\" getgenv() still a string"',
      'print(1)',
    ].join('\n');
    expect(findExecutorFunctions(code)).toEqual([]);
    expect(stripCommentsAndStrings('a --x\nb "c" [[d]] e')).toBe('a  \nb     e');
  });

  it('counts a name read, not one only assigned', () => {
    expect(findExecutorFunctions('local getgenv = getgenv or function() return _G end')).toEqual(['getgenv']);
    expect(findExecutorFunctions('if getgenv == nil then return end')).toEqual(['getgenv']);
  });

  it('keeps scanning after an unterminated string or comment', () => {
    expect(findExecutorFunctions('print("open\ngetgenv()')).toEqual(['getgenv']);
    expect(findExecutorFunctions('--[[ never closed getgenv()')).toEqual([]);
  });

  it('scans a megabyte of strings and comments to the end', () => {
    const code = 'local x = "a string" -- and a comment\n'.repeat(30_000) + 'getgenv()';
    expect(findExecutorFunctions(code)).toEqual(['getgenv']);
  });
});
