/**
 * The form resolver of react-hook-form for zod schemas, with zod loaded and handed to the
 * contract first (`./index.ts`): a form that checks a contract schema imports it from here (a lint
 * rule forbids `@hookform/resolvers/zod` elsewhere), so its schema is never built before zod.
 */
import './index.ts';

export { zodResolver } from '@hookform/resolvers/zod';
