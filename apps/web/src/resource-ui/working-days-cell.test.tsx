import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import ar from '../i18n/locales/ar.json';
import signedInAr from '../i18n/locales/signed-in/texts-ar.ts';
import { mergedTexts } from '../test/texts.ts';
import { WorkingDaysCell } from './working-days-cell.tsx';

const at = (hours: number, minutes = 0) => hours * 3600 + minutes * 60;
const cairoWeek = [
  { day: 'monday' as const, opensAt: at(20), closesAt: at(2) },
  { day: 'tuesday' as const, opensAt: at(20), closesAt: at(2) },
  { day: 'wednesday' as const, opensAt: at(20), closesAt: at(2) },
  { day: 'thursday' as const, opensAt: at(20), closesAt: at(2) },
  { day: 'friday' as const, closed: true },
  { day: 'saturday' as const, opensAt: at(9), closesAt: at(17) },
  { day: 'sunday' as const, opensAt: 0, closesAt: 86_400 },
];
const lines = (container: HTMLElement) => [...container.querySelectorAll('li')].map((li) => li.textContent);

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('WorkingDaysCell (the list column)', () => {
  it('puts days with the same hours on one line, marks a night shift, a closed day and a 24-hour day', () => {
    const { container } = render(<WorkingDaysCell days={cairoWeek} limit={7} />);
    expect(lines(container)).toEqual([
      'Mon–Thu 08:00 PM – 02:00 AM+1 (next day)',
      'Fri Closed',
      'Sat 09:00 AM – 05:00 PM',
      'Sun 24 hours',
    ]);
  });

  it('reads an old record: the days it leaves out are closed', () => {
    const { container } = render(
      <WorkingDaysCell days={[{ day: 'saturday', opensAt: at(9), closesAt: at(17) }]} />,
    );
    expect(lines(container)).toEqual(['Mon–Fri Closed', 'Sat 09:00 AM – 05:00 PM', 'Sun Closed']);
  });

  it('in Arabic, with ar-EG digits', async () => {
    if (!i18next.hasResourceBundle('ar', 'translation'))
      i18next.addResourceBundle('ar', 'translation', mergedTexts(ar, signedInAr));
    await i18next.changeLanguage('ar');
    const { container } = render(<WorkingDaysCell days={cairoWeek} limit={7} />);
    expect(lines(container)).toEqual([
      'الاثنين–الخميس ٠٨:٠٠ م – ٠٢:٠٠ ص+١ (اليوم التالي)',
      'الجمعة مغلق',
      'السبت ٠٩:٠٠ ص – ٠٥:٠٠ م',
      'الأحد ٢٤ ساعة',
    ]);
  });

  it('keeps a long week to three lines: two, then "+N more", which unfolds the rest and folds it again', () => {
    const week = cairoWeek.map((entry, index) =>
      entry.closed ? entry : { ...entry, opensAt: at(8 + index), closesAt: at(20) },
    );
    const { container } = render(<WorkingDaysCell days={week} />);
    expect(lines(container)).toEqual(['Mon 08:00 AM – 08:00 PM', 'Tue 09:00 AM – 08:00 PM', '+5 more']);
    const list = container.querySelector('ul');
    expect(list?.title.split('\n')).toHaveLength(7);
    expect(list?.title).toContain('Fri Closed');

    fireEvent.click(screen.getByRole('button', { name: '+5 more' }));
    expect(lines(container)).toHaveLength(8);
    expect(lines(container).at(-1)).toBe('Show less');
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(lines(container)).toHaveLength(3);
  });

  it('shows a week of three lines or fewer whole, with no button', () => {
    const { container } = render(
      <WorkingDaysCell days={[{ day: 'saturday', opensAt: at(9), closesAt: at(17) }]} />,
    );
    expect(lines(container)).toHaveLength(3);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
