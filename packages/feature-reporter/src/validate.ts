import type { FeedbackInput } from './types.js';

/** The API's length rules for POST /features (characters, after trimming). */
export const FEEDBACK_LIMITS = {
  titleMin: 4,
  titleMax: 120,
  descriptionMin: 12,
  descriptionMax: 1000,
} as const;

/** One problem with the input, named like the API's validation details. */
export interface FeedbackIssue {
  field: 'title' | 'description' | 'contactEmail';
  /** `invalid`: another rule of the API, explained in `message`. */
  code: 'required' | 'too_short' | 'too_long' | 'invalid_email' | 'invalid';
  message: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks a submission against the API's rules before it is sent; returns the problems (empty when
 * valid). The widget uses the same rules.
 */
export function validateFeedback(input: Partial<FeedbackInput>): FeedbackIssue[] {
  const issues: FeedbackIssue[] = [];
  const L = FEEDBACK_LIMITS;
  const check = (field: 'title' | 'description', value: string | undefined, min: number, max: number) => {
    const text = (value ?? '').trim();
    if (!text) issues.push({ field, code: 'required', message: `${field} is required` });
    else if (text.length < min)
      issues.push({ field, code: 'too_short', message: `${field} needs at least ${min} characters` });
    else if (text.length > max)
      issues.push({ field, code: 'too_long', message: `${field} allows at most ${max} characters` });
  };
  check('title', input.title, L.titleMin, L.titleMax);
  check('description', input.description, L.descriptionMin, L.descriptionMax);
  const email = input.contactEmail?.trim();
  if (email && !EMAIL.test(email))
    issues.push({ field: 'contactEmail', code: 'invalid_email', message: 'contactEmail is not an e-mail address' });
  return issues;
}
