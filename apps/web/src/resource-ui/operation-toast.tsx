import type { ResourceDefinition } from '@dukkan/contract';
import type { TFunction } from 'i18next';
import { describeApiError } from '../lib/error-messages.ts';
import { entityFromPath } from './entity-name.ts';

/** The actions an operation toast can name (spec §4 "Async actions", §8). */
export type OperationAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'enable'
  | 'disable'
  | 'invite'
  | 'resendInvite'
  | 'remove';

/** `resources.<key>.entity` when translated, else the spec's rule applied to the path. */
export function operationEntity(definition: Pick<ResourceDefinition, 'key' | 'path'>, t: TFunction): string {
  return t(`resources.${definition.key}.entity` as 'resources.authorityRoles.entity', {
    defaultValue: entityFromPath(definition.path),
  });
}

/** 'Creating ROLE in progress...', 'Creating ROLE successful!', 'Creating ROLE failed.' */
export function operationTexts(action: OperationAction, entity: string, t: TFunction) {
  const values = { action: t(`operations.actions.${action}`), entity };
  return {
    loading: t('operations.inProgress', values),
    success: t('operations.successful', values),
    failure: t('operations.failed', values),
  };
}

/**
 * Follows a call with one toast that turns from 'in progress' into 'successful' or 'failed';
 * a failure also says why (a role still in use, a duplicate code), in the user's language —
 * unless the caller shows the reason itself (a dialog that stays open), so it is read once. A
 * caller that says the whole failure itself (`showFailure: false`: the delete confirmation) gets
 * no failure toast at all: the in-progress toast is removed.
 */
export function toastOperation<T>(
  promise: Promise<T>,
  texts: ReturnType<typeof operationTexts>,
  t: TFunction,
  language: string,
  { showReason = true, showFailure = true }: { showReason?: boolean; showFailure?: boolean } = {},
): Promise<T> {
  // The toast shows the rejection; callers still get the promise to await. Handled here too, as the
  // toast may attach a moment later: react-hot-toast is asked for when the first toast is, not
  // with the list (it is ~5 KB on the wire; the toaster usually has it loaded by then).
  promise.catch(() => undefined);
  // The toast's own promise is the call's, rejected when it fails: not handed on, or it would be
  // an unhandled rejection here.
  void import('react-hot-toast').then(({ default: toast }) => {
    if (!showFailure) {
      const id = toast.loading(texts.loading);
      promise.then(
        () => toast.success(texts.success, { id }),
        () => toast.remove(id),
      );
      return;
    }
    void toast.promise(promise, {
      loading: texts.loading,
      success: texts.success,
      error: (error: unknown) =>
        showReason ? (
          <span>
            <span className="block font-semibold">{texts.failure}</span>
            <span className="block text-slate-600 dark:text-slate-300">
              {describeApiError(error, t, language)}
            </span>
          </span>
        ) : (
          texts.failure
        ),
    });
  });
  return promise;
}
