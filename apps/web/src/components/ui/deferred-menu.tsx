import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type Ref,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { LazyComponent } from '../../lib/lazy-component.tsx';
import { whenIdle } from '../../lib/when-idle.ts';

/** What a deferred menu's chunk renders: the menu (Radix's), with a trigger made of these. */
export interface MenuWithTriggerProps {
  /** The button was pressed before the chunk arrived: the menu opens as it first renders. */
  defaultOpen: boolean;
  triggerClassName: string;
  triggerContent: ReactNode;
  triggerRef: Ref<HTMLButtonElement>;
}

/**
 * A menu button whose menu comes in a chunk of its own: Radix's dropdown with Floating UI, ~18 KB
 * on the wire that a signed-in page downloaded and ran before it showed (Lighthouse counts every
 * byte that arrives before the page's largest paint). The chunk loads once the page has shown and
 * the browser is idle, or as soon as the button is pointed at, focused or pressed.
 *
 * Until it arrives the button is a plain one, of the same look and name, announced as opening a
 * menu. A press (pointer, Enter, Space or ArrowDown) opens the menu as soon as the chunk is there;
 * the focus stays on the button as the menu's own replaces it.
 */
export function DeferredMenu({
  menu: Menu,
  className,
  children,
}: {
  menu: LazyComponent<MenuWithTriggerProps>;
  className: string;
  children: ReactNode;
}) {
  // A chunk already there (a later mount): the menu's own trigger at once.
  const [loaded, setLoaded] = useState(Menu.isLoaded);
  const [pressed, setPressed] = useState(false);
  const placeholder = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);
  const alive = useRef(true);

  const load = useRef(() => {
    Menu.preload().then(
      () => {
        if (!alive.current) return;
        hadFocus.current = document.activeElement === placeholder.current;
        setLoaded(true);
      },
      // Not downloaded (offline): the button stays, and the next press asks again.
      () => undefined,
    );
  }).current;

  useEffect(() => {
    alive.current = true;
    const cancel = whenIdle(load);
    return () => {
      alive.current = false;
      cancel();
    };
  }, [load]);

  // A press opens the menu, which takes the focus (and gives it back to the trigger as it closes).
  useLayoutEffect(() => {
    if (loaded && hadFocus.current && !pressed) trigger.current?.focus();
  }, [loaded, pressed]);

  if (loaded)
    return (
      <Menu
        defaultOpen={pressed}
        triggerClassName={className}
        triggerContent={children}
        triggerRef={trigger}
      />
    );

  const press = () => {
    setPressed(true);
    load();
  };
  // Radix's trigger opens on the press itself, not at the click that follows it.
  const onPointerDown = (event: PointerEvent) => {
    if (event.button === 0 && !event.ctrlKey) press();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown') return;
    event.preventDefault();
    press();
  };
  return (
    <button
      ref={placeholder}
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      className={className}
      onPointerEnter={load}
      onFocus={load}
      onPointerDown={onPointerDown}
      onClick={press}
      onKeyDown={onKeyDown}
    >
      {children}
    </button>
  );
}
