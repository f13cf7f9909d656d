import { HarnessError } from '../../core/index.js';

/**
 * Splits a command line into words the way a POSIX shell would, without running one: whitespace separates
 * words, '…' is literal, "…" keeps spaces and honours \" \\ \$ \` escapes, a backslash outside quotes
 * escapes the next character. No variables, globs, pipes or redirections.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const fail = (what: string): never => {
    throw new HarnessError('USAGE', `command line ${JSON.stringify(line)}: ${what}`);
  };
  while (i < line.length) {
    const char = line[i] as string;
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) fail('unterminated single quote');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (char === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= line.length) fail('unterminated double quote');
        const inner = line[i] as string;
        if (inner === '"') break;
        if (inner === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1] as string)) {
          if (line[i + 1] !== '\n') word += line[i + 1];
          i += 2;
        } else {
          word += inner;
          i++;
        }
      }
      i++;
    } else if (char === '\\') {
      if (i + 1 >= line.length) fail('trailing backslash');
      // Backslash-newline continues the line; any other escaped character is taken literally.
      if (line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += char;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) fail('no command');
  return words;
}
