import {
  type GetStartedStep,
  type GetStartedStepKey,
  getStartedStepTags,
  isGetStartedShown,
  numberFormat,
} from '@dukkan/contract';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { CheckIcon } from '../../components/ui/icons.tsx';
import { describeApiError } from '../../lib/error-messages.ts';
import { useCan, useWorkspace } from '../../lib/workspace-context.tsx';
import { useGetStarted, useGetStartedDismissal } from './use-get-started.ts';

/** The id of the dashboard's applications, where the last step's link leads. */
export const applicationsSectionId = 'applications';

/** Where each step is taken: its page, or the applications below the list. */
const stepTargets: Record<GetStartedStepKey, string> = {
  brand: '/brands',
  location: '/locations',
  product: '/products/add',
  invite: '/users',
  application: `#${applicationsSectionId}`,
};

const titleId = 'get-started-title';
const linkClassName =
  'rounded-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:text-brand-400 dark:hover:text-brand-300 dark:focus-visible:outline-brand-400';

/** A step not done: its link, or why it cannot be taken yet. */
function StepAction({ step }: { step: GetStartedStep }) {
  const { t } = useTranslation();
  const mayAddBrands = useCan({ and: [getStartedStepTags.brand] });
  const title = t(`getStarted.steps.${step.key}.title`);
  if (step.waitsFor === 'brand') {
    return (
      <>
        <span className="font-semibold text-slate-900 dark:text-white">{title}</span>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {mayAddBrands
            ? t('getStarted.steps.location.waitsForBrand')
            : t('getStarted.steps.location.waitsForBrandElsewhere')}
        </p>
      </>
    );
  }
  const target = stepTargets[step.key];
  const link = target.startsWith('#') ? (
    // On this page: the focus goes to the applications, without a history entry.
    <a
      href={target}
      className={linkClassName}
      onClick={(event) => {
        const section = document.getElementById(applicationsSectionId);
        if (!section) return;
        event.preventDefault();
        section.scrollIntoView({ block: 'start' });
        section.focus({ preventScroll: true });
      }}
    >
      {title}
    </a>
  ) : (
    <Link to={target} className={linkClassName}>
      {title}
    </Link>
  );
  return (
    <>
      {link}
      <p className="text-sm text-slate-600 dark:text-slate-400">{t(`getStarted.steps.${step.key}.hint`)}</p>
    </>
  );
}

function StepItem({ step, position }: { step: GetStartedStep; position: number }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="flex items-start gap-3 py-3">
      <span
        aria-hidden="true"
        className={
          step.done
            ? 'flex size-7 shrink-0 items-center justify-center rounded-full bg-green-600 text-white dark:bg-green-500 dark:text-slate-950'
            : 'flex size-7 shrink-0 items-center justify-center rounded-full border border-slate-300 text-sm font-semibold text-slate-600 dark:border-slate-600 dark:text-slate-300'
        }
      >
        {step.done ? <CheckIcon className="size-4" /> : numberFormat(i18n.language).format(position)}
      </span>
      <div className="min-w-0 flex-1">
        {step.done ? (
          <span className="font-semibold text-slate-600 dark:text-slate-400">
            {t(`getStarted.steps.${step.key}.title`)}
          </span>
        ) : (
          <StepAction step={step} />
        )}
      </div>
      {step.done && (
        <span className="shrink-0 text-sm leading-6 font-semibold text-green-700 dark:text-green-400">
          {t('getStarted.done')}
        </span>
      )}
    </li>
  );
}

/**
 * The dashboard's "Get started" list: the first steps of a new workspace this member may take,
 * each a link to where it is done, ticked from the workspace's data. Absent when the member has no
 * step, when every one is done, or once someone hid it for the workspace. Hiding asks nothing:
 * the list gives way to a line saying so, with a button that shows it again.
 */
export function GetStarted() {
  const { t, i18n } = useTranslation();
  const { selectedWorkspace } = useWorkspace();
  const getStarted = useGetStarted();
  const dismissal = useGetStartedDismissal();
  // Hidden from here during this visit: the line offering to show it again stays until the page is left.
  const [hiddenHere, setHiddenHere] = useState(false);
  const undoRef = useRef<HTMLButtonElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [focusAfter, setFocusAfter] = useState<'undo' | 'title' | null>(null);
  const workspaceName = selectedWorkspace?.name ?? '';

  useEffect(() => {
    if (focusAfter === 'undo') undoRef.current?.focus();
    if (focusAfter === 'title') titleRef.current?.focus();
  }, [focusAfter]);

  const change = async (hide: boolean) => {
    try {
      await dismissal.mutateAsync(hide);
      flushSync(() => setHiddenHere(hide));
      setFocusAfter(hide ? 'undo' : 'title');
    } catch (error) {
      toast.error(describeApiError(error, t, i18n.language));
    }
  };

  const state = getStarted.data;
  if (!state) return null;
  if (hiddenHere && state.dismissedAt !== null) {
    return (
      <Card className="mb-6 flex flex-wrap items-center gap-3 px-5 py-3">
        <p role="status" className="min-w-0 flex-1 text-sm text-slate-700 dark:text-slate-300">
          {t('getStarted.hidden', { workspaceName })}
        </p>
        <Button
          ref={undoRef}
          variant="secondary"
          size="sm"
          loading={dismissal.isPending}
          onClick={() => void change(false)}
        >
          {t('getStarted.undo')}
        </Button>
      </Card>
    );
  }
  if (!isGetStartedShown(state)) return null;

  const number = numberFormat(i18n.language);
  const done = state.steps.filter((step) => step.done).length;
  return (
    <Card className="mb-6 p-5" role="region" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-64">
          <h2
            id={titleId}
            ref={titleRef}
            tabIndex={-1}
            className="text-base font-semibold text-slate-900 outline-none dark:text-white"
          >
            {t('getStarted.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {t('getStarted.intro', { workspaceName })}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span className="text-sm font-semibold whitespace-nowrap text-slate-700 tabular-nums dark:text-slate-300">
            {t('getStarted.progress', {
              done: number.format(done),
              total: number.format(state.steps.length),
            })}
          </span>
          <Button variant="ghost" size="sm" loading={dismissal.isPending} onClick={() => void change(true)}>
            {t('getStarted.hide')}
          </Button>
        </div>
      </div>
      <ol className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
        {state.steps.map((step, index) => (
          <StepItem key={step.key} step={step} position={index + 1} />
        ))}
      </ol>
    </Card>
  );
}
