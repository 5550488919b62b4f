import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { textField } from '../text-field.ts';
import { validationCodes as codes } from '../validation-codes.ts';
import {
  captchaTokenField,
  emailField,
  languageField,
  limits,
  linkTokenField,
  loginPasswordField,
  nameField,
  optionalWebsiteField,
  phoneField,
  strongPasswordField,
} from './fields.ts';

export const businessCategories = ['food', 'technology', 'finance', 'health', 'education', 'other'] as const;
export const referralSources = ['google', 'facebook', 'tiktok', 'friend', 'other'] as const;

export const loginInputSchema = lazySchema(() =>
  z.object({ email: emailField, password: loginPasswordField }),
);
export type LoginInput = z.infer<typeof loginInputSchema>;

export const requestAccessInputSchema = lazySchema(() =>
  z.object({
    name: nameField,
    email: emailField,
    phone: phoneField,
    companyName: textField(codes.COMPANY_NAME_IS_REQUIRED)
      .trim()
      .min(1, codes.COMPANY_NAME_IS_REQUIRED)
      .max(limits.long, codes.COMPANY_NAME_TOO_LONG),
    companyWebsite: optionalWebsiteField.optional(),
    businessCategory: z.enum(businessCategories, { error: codes.BUSINESS_CATEGORY_IS_REQUIRED }),
    howDidYouHearAboutUs: z.enum(referralSources, { error: codes.HOW_DID_YOU_HEAR_IS_REQUIRED }),
    reCaptchaToken: captchaTokenField.optional(),
    language: languageField.optional(),
  }),
);
export type RequestAccessInput = z.infer<typeof requestAccessInputSchema>;

export const forgotPasswordInputSchema = lazySchema(() =>
  z.object({
    email: emailField,
    reCaptchaToken: captchaTokenField.optional(),
    language: languageField.optional(),
  }),
);
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInputSchema>;

/** What `/reset-password` and `/set-password` send: the new password and the mailed token. */
export const resetPasswordInputSchema = lazySchema(() =>
  z.object({ password: strongPasswordField, token: linkTokenField }),
);
export type ResetPasswordInput = z.infer<typeof resetPasswordInputSchema>;

const confirmPasswordField = lazySchema(() =>
  z.string({ error: codes.CONFIRM_PASSWORD_IS_REQUIRED }).min(1, codes.CONFIRM_PASSWORD_IS_REQUIRED),
);

/** The page's form: password twice; the token comes from the query string. */
export const newPasswordFormSchema = lazySchema(() =>
  z
    .object({ password: strongPasswordField, confirmPassword: confirmPasswordField })
    .refine((form) => form.password === form.confirmPassword, {
      message: codes.PASSWORDS_DO_NOT_MATCH,
      path: ['confirmPassword'],
    }),
);
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

export const changePasswordInputSchema = lazySchema(() =>
  z.object({
    currentPassword: textField(codes.PASSWORD_IS_REQUIRED)
      .min(1, codes.PASSWORD_IS_REQUIRED)
      .max(limits.long, codes.PASSWORD_TOO_LONG),
    newPassword: strongPasswordField,
  }),
);
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

export const changePasswordFormSchema = lazySchema(() =>
  changePasswordInputSchema
    .extend({ confirmPassword: confirmPasswordField })
    .refine((form) => form.newPassword === form.confirmPassword, {
      message: codes.PASSWORDS_DO_NOT_MATCH,
      path: ['confirmPassword'],
    }),
);
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

export const updateProfileInputSchema = lazySchema(() =>
  z.object({
    name: nameField,
    // A non-string phone fails both options: the union's own message must still be a code.
    phone: z.union([z.literal(''), phoneField], { error: codes.PHONE_IS_INVALID }).optional(),
    language: languageField.optional(),
  }),
);
export type UpdateProfileInput = z.infer<typeof updateProfileInputSchema>;

/** The user menu's language switch: `PATCH /auth/profile` with the language alone saves just it. */
export const updateLanguageInputSchema = lazySchema(() => z.strictObject({ language: languageField }));
export type UpdateLanguageInput = z.infer<typeof updateLanguageInputSchema>;
