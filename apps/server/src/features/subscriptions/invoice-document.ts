import { type InvoiceDocument, invoiceDocument } from '@dukkan/contract';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, workspaces } from '../../db/schema/index.ts';
import { escapeHtml } from '../../platform/mail/render.ts';
import { isUuid } from '../../resource-engine/queries.ts';
import { toPaymentRecord } from './invoices.ts';

/**
 * The document of one of the workspace's issued invoices in `language`, or undefined when the
 * workspace has no invoice of that id (another workspace's is not found either).
 */
export async function loadInvoiceDocument(
  db: Database,
  workspaceId: string,
  invoiceId: string,
  language: string | undefined,
): Promise<{ document: InvoiceDocument; number: number } | undefined> {
  if (!isUuid(invoiceId)) return undefined;
  const [row] = await db
    .select({ invoice: payments, workspaceName: workspaces.name, timeZone: workspaces.timeZone })
    .from(payments)
    .innerJoin(workspaces, eq(workspaces.id, payments.workspaceId))
    .where(and(eq(payments.workspaceId, workspaceId), eq(payments.id, invoiceId)));
  if (!row) return undefined;
  const document = invoiceDocument({
    invoice: toPaymentRecord(row.invoice),
    workspaceName: row.workspaceName,
    timeZone: row.timeZone,
    language,
  });
  return { document, number: row.invoice.number };
}

// System fonts only: the file is read offline, and every browser shapes Arabic with them.
const style = `
*{box-sizing:border-box}
body{margin:0;padding:32px 16px;background:#f1f5f9;color:#0f172a;font:15px/1.5 system-ui,"Segoe UI","Noto Sans Arabic","Noto Sans",Tahoma,Arial,sans-serif}
article{max-width:760px;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:32px}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:16px;border-bottom:2px solid #0f766e;padding-bottom:16px}
h1{margin:0;font-size:24px}
.brand{color:#0f766e;font-weight:700}
.muted{color:#475569;font-size:13px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:24px 0}
dt{color:#475569}dd{margin:0;font-weight:600}
table{width:100%;border-collapse:collapse;margin-top:8px}
th,td{padding:8px;border-bottom:1px solid #e2e8f0;text-align:start;vertical-align:top}
th{color:#475569;font-size:13px;font-weight:600}
.num{text-align:end;white-space:nowrap}
tfoot td{font-weight:700;font-size:17px;border-bottom:0}
footer{margin-top:24px}
@media (max-width:560px){article{padding:16px}thead{display:none}td{display:block;border:0;padding:2px 0}td.num{text-align:start}tr{display:block;border-bottom:1px solid #e2e8f0;padding:8px 0}tfoot tr{display:flex;justify-content:space-between}}
@media print{body{background:#fff;padding:0}article{border:0;max-width:none;padding:0}}
`;

/** The document as one self-contained HTML file (its styles inline, no script, nothing fetched). */
export function renderInvoiceDocument(document: InvoiceDocument): string {
  const e = escapeHtml;
  const facts = document.facts.map((fact) => `<dt>${e(fact.label)}</dt><dd>${e(fact.value)}</dd>`).join('');
  const lines = document.lines
    .map(
      (line) =>
        `<tr><td>${e(line.description)}</td><td>${e(line.quantity)}</td><td>${e(line.unitPrice)}</td><td class="num">${e(line.amount)}</td></tr>`,
    )
    .join('');
  const h = document.headers;
  return `<!DOCTYPE html>
<html lang="${document.language}" dir="${document.dir}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(document.title)}</title><style>${style}</style></head>
<body><article>
<header><div><h1>${e(document.title)}</h1><div class="brand">${e(document.issuer)}</div></div>
<div><div class="muted">${e(document.billedTo.label)}</div><div><strong>${e(document.billedTo.name)}</strong></div></div></header>
<dl>${facts}</dl>
<table><thead><tr><th>${e(h.description)}</th><th>${e(h.quantity)}</th><th>${e(h.unitPrice)}</th><th class="num">${e(h.amount)}</th></tr></thead>
<tbody>${lines}</tbody>
<tfoot><tr><td colspan="3">${e(document.total.label)}</td><td class="num">${e(document.total.value)}</td></tr></tfoot></table>
<footer class="muted">${e(document.footer)}</footer>
</article></body>
</html>
`;
}
