import { cn } from '../../lib/class-names.ts';
import { useVariantTexts } from './variant-texts.ts';

/** A variant's image: the product's first, or a grey square with a dash. Decorative: the row names it. */
export function VariantThumbnail({
  src,
  large = false,
}: {
  src: string | null | undefined;
  large?: boolean;
}) {
  const size = large ? 'size-12' : 'size-9';
  return src ? (
    <img src={src} alt="" className={cn('shrink-0 rounded-md object-cover', size)} />
  ) : (
    <span
      aria-hidden="true"
      className={cn(
        'grid shrink-0 place-items-center rounded-md border border-dashed border-slate-300 text-slate-400 dark:border-slate-700 dark:text-slate-500',
        size,
      )}
    >
      –
    </span>
  );
}

/**
 * The product's images to choose one from, and "No image": a variant reuses an image the product
 * already has, nothing is uploaded again.
 */
export function VariantImagePicker({
  images,
  value,
  onChoose,
}: {
  images: readonly string[];
  /** The chosen image, null for none, undefined when nothing is chosen yet. */
  value: string | null | undefined;
  onChoose: (image: string | null) => void;
}) {
  const text = useVariantTexts();
  const choice = (selected: boolean) =>
    cn(
      'grid place-items-center rounded-lg p-0.5 ring-2 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
      selected
        ? 'ring-brand-600 dark:ring-brand-400'
        : 'ring-transparent hover:ring-slate-300 dark:hover:ring-slate-600',
    );
  return (
    <div className="space-y-2">
      {images.length === 0 && (
        <p className="max-w-56 text-sm text-slate-600 dark:text-slate-400">{text('noProductImages')}</p>
      )}
      <ul className="flex max-w-72 flex-wrap gap-2">
        {images.map((image, index) => (
          <li key={image}>
            <button
              type="button"
              aria-pressed={value === image}
              aria-label={text('imageNumber', { number: index + 1 })}
              onClick={() => onChoose(image)}
              className={choice(value === image)}
            >
              <VariantThumbnail src={image} large />
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            aria-pressed={value === null}
            onClick={() => onChoose(null)}
            className={cn(
              choice(value === null),
              'h-[3.25rem] px-3 text-xs text-slate-700 dark:text-slate-300',
            )}
          >
            {text('noImage')}
          </button>
        </li>
      </ul>
    </div>
  );
}
