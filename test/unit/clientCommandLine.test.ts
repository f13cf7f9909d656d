import { expect, test } from './helpers/test.js';
import { splitCommandLine } from '../../src/client/commandLine.js';
import { stdioCommandLine, targetKind } from '../../src/client/targetUrl.js';

test('words split on whitespace; quotes and backslashes group and escape as a shell would', () => {
  expect(splitCommandLine('python -m tui_gateway.entry')).toEqual(['python', '-m', 'tui_gateway.entry']);
  expect(splitCommandLine("  a\t 'b c'  \"d e\" ")).toEqual(['a', 'b c', 'd e']);
  expect(splitCommandLine(`say 'it''s' "a \\"b\\" \\\\ \\$x \\n" c\\ d`)).toEqual(['say', 'its', 'a "b" \\ $x \\n', 'c d']);
  expect(splitCommandLine(`x'single $HOME \\'`)).toEqual(['xsingle $HOME \\']);
  expect(splitCommandLine(`'' "" a`)).toEqual(['', '', 'a']);
  expect(splitCommandLine('a\\\nb')).toEqual(['ab']);
  expect(splitCommandLine('env FOO=1 | cat > out')).toEqual(['env', 'FOO=1', '|', 'cat', '>', 'out']);
});

test('a command line that does not parse is a USAGE error naming the problem', () => {
  expect(() => splitCommandLine("a 'b")).toThrow(/\[USAGE\] command line "a 'b": unterminated single quote/);
  expect(() => splitCommandLine('a "b')).toThrow(/unterminated double quote/);
  expect(() => splitCommandLine('a \\')).toThrow(/trailing backslash/);
  expect(() => splitCommandLine('   ')).toThrow(/no command/);
});

test('targets name their transport by scheme', () => {
  expect(targetKind('ws://h/api/ws')).toBe('ws');
  expect(targetKind('WSS://h/api/ws')).toBe('ws');
  expect(targetKind('https://h/api/rpc')).toBe('http');
  expect(targetKind('stdio:python -m tui_gateway.entry')).toBe('stdio');
  expect(stdioCommandLine('stdio:  python -m x ')).toBe('python -m x');
  expect(() => targetKind('ftp://h/')).toThrow(/must use ws:, wss:, http:, https: or stdio:/);
  expect(() => targetKind('localhost:9000')).toThrow(/must use/);
  expect(() => targetKind('no target')).toThrow(/is not a URL; pass ws:\/\/host:port\/api\/ws, http\(s\):\/\/host:port\/api\/rpc or stdio:<command line>/);
});
