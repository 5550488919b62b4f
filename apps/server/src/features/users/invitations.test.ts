import { describe, expect, it } from 'vitest';
import { invitationLink, nameFromEmail } from './invitations.ts';

describe('invitation helpers', () => {
  it('the link opens /accept-invite with the token', () => {
    expect(invitationLink('https://shop.example', 'abc_-1')).toBe(
      'https://shop.example/accept-invite?token=abc_-1',
    );
  });

  it('a new account is named after the local part of its email, within 60 characters', () => {
    expect(nameFromEmail('nour.ali@example.com')).toBe('nour.ali');
    expect(nameFromEmail(`${'n'.repeat(70)}@example.com`)).toHaveLength(60);
    expect(nameFromEmail('@example.com')).toBe('@example.com');
  });
});
