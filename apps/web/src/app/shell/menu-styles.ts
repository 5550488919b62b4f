/** Shared look of the Radix menus (workspace selector, user menu). */
export const menuContentClassName =
  'z-50 min-w-40 rounded-xl border border-slate-200 bg-white p-1.5 text-slate-800 shadow-lg outline-none dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100';

export const menuItemClassName =
  'flex cursor-default select-none items-center gap-2.5 rounded-lg px-2 py-2 text-sm outline-none data-[highlighted]:bg-slate-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-50 dark:data-[highlighted]:bg-slate-700';
