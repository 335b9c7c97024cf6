/**
 * Refuses guessable passwords with zxcvbn-ts (a maintained port of Dropbox's zxcvbn): common and
 * leaked-password lists, English words and names, keyboard patterns, dates, repeats and l33t
 * variants. A score below 3 ("safely unguessable: moderate protection from offline attacks") is
 * refused, with the checker's own feedback as the message.
 */
import { BadRequestError } from '../../kernel/errors.ts';

const MIN_SCORE = 3;

type Checker = {
  check(
    password: string,
    userInputs: string[],
  ): { score: number; feedback: { warning: string | null; suggestions: string[] } };
};

/**
 * The checker, built on first use: its dictionaries hold about 30 MB, which a server that never
 * sees a sign-up or a password change should not carry.
 */
let checker: Promise<Checker> | undefined;
function passwordChecker(): Promise<Checker> {
  checker ??= (async () => {
    const [{ default: zxcvbnCore }, { default: zxcvbnCommon }, { default: zxcvbnEnglish }] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    // The packages are CommonJS; their named exports are read from the default export.
    return new zxcvbnCore.ZxcvbnFactory({
      translations: zxcvbnEnglish.translations,
      graphs: zxcvbnCommon.adjacencyGraphs,
      dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
      // The matchers' cost grows fast with length (measured: 0.8 s for a 200-character pattern on an
      // anonymous endpoint, the check runs on the event loop); 64 characters that are not guessable make a strong password anyway.
      maxLength: 64,
      // Likewise the l33t matcher's substitutions (measured: 600 ms for 'aZ9!' x 16 at the default
      // 100, 50 ms at 8); eight substitutions still catch the usual 'P@ssw0rd!'.
      l33tMaxSubstitutions: 8,
    });
  })();
  return checker;
}

/** Why the password is too easy to guess, or undefined when it is strong enough. */
export async function passwordWeakness(password: string, userInputs: string[] = []): Promise<string | undefined> {
  const result = (await passwordChecker()).check(password, userInputs);
  if (result.score >= MIN_SCORE) return undefined;
  const { warning, suggestions } = result.feedback;
  return ['This password is too easy to guess.', warning, ...suggestions].filter(Boolean).join(' ');
}

/**
 * 400 naming `field` when the password is too easy to guess. `userInputs` (the address, the
 * name) count as known to an attacker: a password made of them is weak.
 */
export async function requireStrongPassword(password: string, field: string, userInputs: string[] = []): Promise<void> {
  // The checker matches each input whole: add an address's local part and every word of each.
  const words = userInputs.flatMap((input) => [input, input.split('@')[0]!, ...input.split(/[^\p{L}\p{N}]+/u)]);
  const weakness = await passwordWeakness(password, [...new Set(words.filter((word) => word.length >= 3))]);
  if (weakness) throw new BadRequestError(weakness, [{ field, message: weakness }]);
}
