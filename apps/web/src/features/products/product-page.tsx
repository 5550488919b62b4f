import {
  type ProductRecord,
  productsResource,
  tagFor,
  type VariantRow,
  type VariationTypeRecord,
  variationTypesResource,
} from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useMemo, useState } from 'react';
import { FormProvider, type Path, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { KeptRecordsNote, KeptRecordsScope, useKeptRecords } from '../../components/kept-records.tsx';
import { NotAuthorizedView } from '../../components/not-authorized-view.tsx';
import { EmptyState, Page } from '../../components/page.tsx';
import { AlertIcon } from '../../components/ui/action-icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { LinkBrokenIcon } from '../../components/ui/icons.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard.tsx';
import { apiRequest, isApiError } from '../../lib/api-client.ts';
import { leaveWithoutAsking } from '../../lib/leave-guard.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useSelectedWorkspaceIfAny } from '../../lib/workspace-context.tsx';
import { zodResolver } from '../../lib/zod/resolver.ts';
import { formErrorMap } from '../../resource-ui/form/form-messages.ts';
import { optionListParams } from '../../resource-ui/option-sources.ts';
import { RecordHistory, useMayReadHistory } from '../../resource-ui/record-history.tsx';
import { useFileUploads } from '../../resource-ui/use-file-uploads.ts';
import {
  useOperationRunner,
  useResourceAccess,
  useResourceList,
  useResourceRecord,
} from '../../resource-ui/use-resource.ts';
import { ProductDetailsFields, ProductDetailsView, productTitle } from './product-details.tsx';
import {
  type OptionFormValues,
  type ProductFormOutput,
  type ProductFormValues,
  productCreateInput,
  productFormSchema,
  productFormValues,
  productUpdateInput,
} from './product-form.ts';
import { noPlacedIssues, type PlacedIssues, placeIssues, type SentInput } from './product-issues.ts';
import { ProductReferencesProvider, useIssueText, useVariationTypes } from './product-lookups.ts';
import { ProductOptionsEditor, ProductOptionsView } from './product-options.tsx';
import { RecipeEditor, RecipeView } from './product-recipe.tsx';
import {
  countCheck,
  nextEdits,
  storedVariantRows,
  type VariantChanges,
  variantEditsToSend,
  variantOptionsOf,
  variantRows,
  withEdits,
} from './product-variants.ts';
import { productPath } from './products-page.tsx';
import { VariantBulkEditBar } from './variant-bulk-edit-bar.tsx';
import { VariantGrid, type VariantGridErrors } from './variant-grid.tsx';

const noIssues = noPlacedIssues();

const noop = () => {};

/** A titled part of the product page. */
function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = useId();
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={id} className="space-y-4">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={id} className="text-base font-semibold text-slate-900 dark:text-white">
            {title}
          </h2>
          {actions && <div className="ms-auto">{actions}</div>}
        </div>
        {children}
      </section>
    </Card>
  );
}

/**
 * The variants of the chosen options: the combinations, within the limit, merged with the stored
 * variants by key. When a chosen type is unknown (not loaded, or not visible to the user) and the
 * choice is the stored one, the stored variants are shown as they are.
 */
function useProductVariants(
  chosen: readonly OptionFormValues[],
  types: ReadonlyMap<string, VariationTypeRecord>,
  saved: ProductRecord | undefined,
  language: string,
) {
  // A new combination starts at the product's own price and cost (what it sold at without variants).
  const ownPrice = saved?.price ?? 0;
  const ownCost = saved?.cost ?? null;
  const chosenKey = JSON.stringify(chosen);
  // biome-ignore lint/correctness/useExhaustiveDependencies: chosenKey stands for the chosen options
  const options = useMemo(() => variantOptionsOf(chosen, types), [chosenKey, types]);
  const check = useMemo(() => (options ? countCheck(options) : null), [options]);
  const stored = saved?.variants;
  const unchanged =
    JSON.stringify(chosen.filter((option) => option.valueIds.length > 0)) ===
    JSON.stringify(saved?.options ?? []);
  const base = useMemo((): VariantRow[] => {
    if (options && check?.ok)
      return variantRows(options, stored ?? [], language, { price: ownPrice, cost: ownCost });
    if (!options && unchanged) return storedVariantRows(stored ?? [], language);
    return [];
  }, [options, check, stored, unchanged, language, ownPrice, ownCost]);
  return { check, base, known: options !== null || unchanged };
}

/** Messages of a refused save that name no field the page shows; a variant's start with its title. */
function IssueAlerts({
  issues,
  variantTitle,
}: {
  issues: PlacedIssues['variantsSection'];
  variantTitle?: (key: string) => string | undefined;
}) {
  const issueText = useIssueText();
  if (issues.length === 0) return null;
  return (
    <Alert tone="error">
      {issues.map((issue) => {
        const title = issue.variantKey ? variantTitle?.(issue.variantKey) : undefined;
        return (
          <p key={`${issue.path}-${issue.message}`}>
            {title && <span className="font-semibold">{title}: </span>}
            {issueText(issue)}
          </p>
        );
      })}
    </Alert>
  );
}

/** The add and edit page of a product, for a user who may save it. */
function ProductEditor({ record }: { record: ProductRecord | undefined }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const issueText = useIssueText();
  const run = useOperationRunner(productsResource);
  const { workspaceId } = useResourceAccess(productsResource);
  const { uploadFiles, fileAccess } = useFileUploads();
  const formId = useId();
  const [saved, setSaved] = useState(record);
  // Amounts are minor units of the workspace's base currency, typed with its decimals.
  const currency = useSelectedWorkspaceIfAny()?.baseCurrency ?? 'EGP';
  const schema = useMemo(() => productFormSchema(currency), [currency]);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema, { error: formErrorMap }) as Resolver<
      ProductFormValues,
      unknown,
      ProductFormOutput
    >,
    defaultValues: productFormValues(record, currency, i18n.language),
  });
  // Price or cost cells holding a typed text that is not an amount: nothing is saved until fixed.
  const [invalidCells, setInvalidCells] = useState(0);
  const [edits, setEdits] = useState<ReadonlyMap<string, VariantChanges>>(new Map());
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [issues, setIssues] = useState<PlacedIssues>(noIssues);
  // Records made with a field's "New …" stay saved whatever becomes of the product's changes.
  const kept = useKeptRecords();

  const chosen = useWatch({ control: form.control, name: 'options' });
  const nameValues = useWatch({ control: form.control, name: 'name' });
  const productName = useMemo(
    () =>
      (['en', 'ar'] as const).flatMap((locale) =>
        nameValues[locale].trim() ? [{ locale, value: nameValues[locale].trim() }] : [],
      ),
    [nameValues],
  );
  const images = useWatch({ control: form.control, name: 'images' });
  const code = useWatch({ control: form.control, name: 'code' });
  const variationTypes = useVariationTypes(chosen.map((option) => option.typeId));
  const { check, base, known } = useProductVariants(chosen, variationTypes.types, saved, i18n.language);
  const shown = useMemo(() => withEdits(base, edits), [base, edits]);
  const tooMany = check !== null && !check.ok;
  const dirty = form.formState.isDirty || edits.size > 0;

  const gridErrors = useMemo(() => {
    const errors: VariantGridErrors = {};
    for (const [key, fields] of issues.variants) {
      errors[key] = {
        sku: fields.sku ? issueText(fields.sku) : undefined,
        barcode: fields.barcode ? issueText(fields.barcode) : undefined,
        price: fields.price ? issueText(fields.price) : undefined,
        cost: fields.cost ? issueText(fields.cost) : undefined,
      };
    }
    return errors;
  }, [issues.variants, issueText]);

  const changeVariants = (next: VariantRow[]) => setEdits((current) => nextEdits(current, base, shown, next));

  const save = form.handleSubmit(async (output) => {
    if (tooMany || !known || invalidCells > 0) return;
    const variants = variantEditsToSend(base, edits);
    const sent: SentInput = {
      variantKeys: variants.map((variant) => variant.key),
      recipeLineIds: form.getValues('recipe').map((line) => line.lineId),
      nameLocales: output.name.map((name) => name.locale),
    };
    setIssues(noIssues);
    try {
      const send = (body: unknown, method: 'POST' | 'PATCH', path: string) => (workspaceId: string) =>
        apiRequest<ProductRecord>(path, { method, body, query: { workspaceId }, language: i18n.language });
      if (saved) {
        const input = productUpdateInput(output, saved, variants);
        const next = await run(
          'update',
          tagFor(productsResource, 'update'),
          send(input, 'PATCH', `/${productsResource.path}/${encodeURIComponent(saved.id)}`),
        );
        setSaved(next);
        setEdits(new Map());
        form.reset(productFormValues(next, currency, i18n.language));
        kept.clear();
      } else {
        const created = await run(
          'create',
          tagFor(productsResource, 'create'),
          send(productCreateInput(output, variants), 'POST', `/${productsResource.path}`),
        );
        // The new product's page opens with the answer, not a second load.
        queryClient.setQueryData(
          queryKeys.resourceRecord(workspaceId ?? '', productsResource.key, created.id),
          created,
        );
        leaveWithoutAsking(() => void navigate(productPath(created.id), { replace: true }));
      }
    } catch (error) {
      const placed = placeIssues(error, sent);
      placed.fields.forEach((field, index) => {
        form.setError(
          field.path as Path<ProductFormValues>,
          { type: 'server', message: field.message },
          { shouldFocus: index === 0 },
        );
      });
      setIssues(placed);
    }
  });

  const title = saved ? productTitle(saved, i18n.language) : t('nav.addProduct');
  const saving = form.formState.isSubmitting;
  const actions = (
    <>
      {dirty && (
        <span className="hidden text-xs text-slate-500 md:inline dark:text-slate-400">
          {t('products.page.unsavedChanges')}
        </span>
      )}
      <Link to="/products" className={buttonClassName('secondary', 'sm')}>
        {t('common.cancel')}
      </Link>
      <Button type="submit" form={formId} size="sm" loading={saving} disabled={tooMany || !known}>
        {t('common.save')}
      </Button>
    </>
  );

  return (
    <Page title={title} actions={actions}>
      <UnsavedChangesGuard
        when={dirty || kept.records.length > 0}
        note={<KeptRecordsNote records={kept.records} />}
      />
      <KeptRecordsScope report={kept.report}>
        <FormProvider {...form}>
          <div className="mx-auto max-w-6xl space-y-6">
            <IssueAlerts issues={issues.other} />
            {/* The form element holds the details (Enter in a box saves); the variants section has a
              form of its own (the bulk edit bar), and forms cannot nest. */}
            <form id={formId} noValidate onSubmit={(event) => void save(event)}>
              <Section title={t('products.page.details')}>
                <ProductDetailsFields
                  isNew={!saved}
                  hasVariants={shown.length > 0}
                  uploadFiles={uploadFiles}
                  fileAccess={fileAccess}
                />
              </Section>
            </form>
            <Section title={t('products.page.variants')}>
              <ProductOptionsEditor {...variationTypes} />
              {check && check.count > 0 && (
                <p role="status" className="text-sm font-semibold text-slate-800 dark:text-slate-200">
                  {t('variants.willBeCreated', { count: check.count })}
                </p>
              )}
              {check && !check.ok && (
                <Alert tone="error">
                  {t('validation.TOO_MANY_VARIANTS', { count: check.count, max: check.max })}
                </Alert>
              )}
              <IssueAlerts
                issues={issues.variantsSection}
                variantTitle={(key) => base.find((row) => row.key === key)?.title}
              />
              {shown.length > 0 && (
                <div className="space-y-3">
                  <VariantBulkEditBar
                    variants={shown}
                    selection={selection}
                    productCode={code}
                    productImages={images}
                    currency={currency}
                    onChange={changeVariants}
                  />
                  {invalidCells > 0 && <Alert tone="error">{t('products.variants.invalidCells')}</Alert>}
                  <VariantGrid
                    variants={shown}
                    productImages={images}
                    readOnly={false}
                    onChange={changeVariants}
                    selection={selection}
                    onSelectionChange={setSelection}
                    errors={gridErrors}
                    currency={currency}
                    parentTitle={productName}
                    onInvalidCountChange={setInvalidCells}
                  />
                </div>
              )}
              {shown.length === 0 && !tooMany && check?.count === 0 && (
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {t('products.options.noVariants')}
                </p>
              )}
            </Section>
            <Section title={t('products.page.recipe')}>
              <IssueAlerts issues={issues.recipeSection} />
              <RecipeEditor productId={saved?.id} issues={issues.recipe} />
            </Section>
            {saved && <ProductHistory productId={saved.id} />}
          </div>
        </FormProvider>
      </KeptRecordsScope>
    </Page>
  );
}

/** A stored product's History (its rows of the audit log), for whoever holds viewAudit. */
function ProductHistory({ productId }: { productId: string }) {
  const { t } = useTranslation();
  if (!useMayReadHistory(productsResource.key)) return null;
  return (
    <Section title={t('audit.historyTab')}>
      <div className="-mx-4 sm:-mx-6">
        <RecordHistory resourceKey={productsResource.key} recordId={productId} />
      </div>
    </Section>
  );
}

/** A product for a user without editProducts: what it is, with no inputs and no Save. */
function ProductView({ product }: { product: ProductRecord }) {
  const { t, i18n } = useTranslation();
  const currency = useSelectedWorkspaceIfAny()?.baseCurrency ?? 'EGP';
  const { types } = useVariationTypes(product.options.map((option) => option.typeId));
  const rows = useMemo(
    () => storedVariantRows(product.variants ?? [], i18n.language),
    [product, i18n.language],
  );
  return (
    <Page
      title={productTitle(product, i18n.language)}
      actions={
        <Link to="/products" className={buttonClassName('secondary', 'sm')}>
          {t('products.page.backToList')}
        </Link>
      }
    >
      <div className="mx-auto max-w-6xl space-y-6">
        <Alert tone="info">{t('products.page.readOnly')}</Alert>
        <Section title={t('products.page.details')}>
          <ProductDetailsView product={product} currency={currency} />
        </Section>
        <Section title={t('products.page.variants')}>
          <ProductOptionsView product={product} types={types} />
          {rows.length > 0 ? (
            <VariantGrid
              variants={rows}
              productImages={product.images}
              readOnly
              onChange={noop}
              selection={new Set()}
              onSelectionChange={noop}
              currency={currency}
              parentTitle={product.name}
            />
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('products.options.noVariants')}</p>
          )}
        </Section>
        <Section title={t('products.page.recipe')}>
          <RecipeView lines={product.recipe ?? []} />
        </Section>
        <ProductHistory productId={product.id} />
      </div>
    </Page>
  );
}

function PageState({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Page title={title}>
      <div className="mx-auto max-w-6xl">{children}</div>
    </Page>
  );
}

/**
 * `/products/add` and `/products/{id}`: one page with the Details, Variants and Recipe sections.
 * A user who may add (new) or edit (stored) gets the form and Save; one who may only view gets
 * the product as text (spec §2: `/products/{id}` needs viewProducts only).
 */
export function ProductPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { allows } = useResourceAccess(productsResource);
  const product = useResourceRecord(productsResource, id);
  const record = product.data as ProductRecord | undefined;
  // The variation types tell the variants the page shows: asked for with the product, not after it.
  useResourceList(variationTypesResource, optionListParams(variationTypesResource));

  if (!id) {
    if (allows('create')) return <ProductEditor record={undefined} />;
    return (
      <PageState title={t('nav.addProduct')}>
        <NotAuthorizedView />
      </PageState>
    );
  }
  if (record)
    return (
      <ProductReferencesProvider value={record.references ?? {}}>
        {allows('update') ? (
          <ProductEditor key={record.id} record={record} />
        ) : (
          <ProductView product={record} />
        )}
      </ProductReferencesProvider>
    );

  const title = t('nav.editProduct');
  if (product.isError) {
    const missing =
      isApiError(product.error) &&
      (product.error.code === 'NOT_FOUND' || product.error.code === 'VALIDATION');
    return (
      <PageState title={title}>
        {missing ? (
          <EmptyState icon={<LinkBrokenIcon />} title={t('products.page.notFound')}>
            <p>{t('products.page.notFoundHint')}</p>
            <Link to="/products" className={buttonClassName('secondary', 'md', 'mt-4')}>
              {t('products.page.backToList')}
            </Link>
          </EmptyState>
        ) : (
          <EmptyState icon={<AlertIcon />} title={t('products.page.loadFailed')}>
            <Button variant="secondary" className="mt-4" onClick={() => void product.refetch()}>
              {t('common.retry')}
            </Button>
          </EmptyState>
        )}
      </PageState>
    );
  }
  return (
    <PageState title={title}>
      <div
        role="status"
        className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600 dark:text-slate-400"
      >
        <Spinner className="size-5" />
        {t('products.page.loading')}
      </div>
    </PageState>
  );
}
