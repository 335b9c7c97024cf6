import { Type } from 'typebox';
import { Email, Timestamp } from '../../http/common-schemas.ts';

export { Email };
/** At least 10 characters; argon2 makes long ones cheap to keep, 200 stops abuse. Strength: password-strength.ts. */
export const Password = Type.String({
  minLength: 10,
  maxLength: 200,
  description:
    'At least 10 characters and hard to guess: common, leaked-pattern and dictionary-based passwords are refused (400 naming the field).',
});

export const Account = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    verified: Type.Boolean({
      description: 'The e-mail address is verified (by its link, or by the identity provider).',
    }),
    admin: Type.Boolean({ description: 'Instance administrator (the first account): sets seat limits.' }),
    hasPassword: Type.Boolean({ description: 'False for accounts that only sign in through the identity provider.' }),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

export const AccountEnvelope = Type.Object({ account: Account }, { additionalProperties: false });

export const SignUpBody = Type.Object({
  email: Email,
  password: Password,
  name: Type.Optional(Type.String({ maxLength: 100 })),
});

export const SignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});

export const UpdateMeBody = Type.Object({ name: Type.String({ maxLength: 100 }) });

export const Message = Type.Object({ message: Type.String() }, { additionalProperties: false });

export const TokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const ResetRequestBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export const ResetBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), password: Password });

export const Verified = Type.Object(
  { verified: Type.Literal(true), email: Type.String() },
  { additionalProperties: false },
);
