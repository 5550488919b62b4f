/** The operator command line's help (`npm run dukkan -- --help`), which README's section follows. */
import {
  invitationLifetimeDays,
  issuedPaymentStatuses,
  planLengths,
  subscriptionStatuses,
} from '@dukkan/contract';

export const helpText = `Dukkan operator commands

Usage: npm run dukkan -- <command> [options]

Commands:
  requests [--status pending|approved|rejected]
        List access requests (all of them, or those with the status).
  approve <requestId>
        Create the workspace named after the request's company, with a "manager" role holding
        every permission, invite the requester as its admin and mark the request approved.
  reject <requestId>
        Mark the request rejected and tell the requester by mail, in their language.
  create-workspace --name <name> --admin-email <email>
        Create a workspace and invite that person as its admin (an existing account joins with
        its password; a new one chooses a password after accepting).
  app list
        List the platform's applications (client id, type, prices, trial, redirect URIs).
  app create --client-id <id> --name-en <name> --name-ar <name> --home-url <url>
             --redirect-uri <url> [--redirect-uri <url>…] --type public|confidential
             --currency <ISO 4217> --monthly-price <minor units per location>
             [--discount <plan>=<basis points>…] [--trial-days <days>]
             [--description-en <text>] [--description-ar <text>] [--logo <file>]
        Register an application. A confidential client's secret is printed once. Plans:
        ${planLengths.join(', ')}; a discount of 1000 basis points is 10 %.
  app update <clientId> [any option of app create but --client-id]
        Change an application (a discount names one plan; the others stay).
  app secret <clientId>
        Give a confidential client a new secret, printed once (the old one stops working).
  subscriptions [--status ${subscriptionStatuses.join('|')}]
        List the workspaces' subscriptions (all of them, or those with the status).
  approve-subscription <subscriptionId>
        Approve a pending subscription: its first period starts now and its invoice is issued.
  reject-subscription <subscriptionId>
        Reject a pending subscription request.
  invoices [--status ${issuedPaymentStatuses.join('|')}]
        List the workspaces' issued invoices.
  record-payment <invoiceId> --status successful|failed
        Record the outcome of an invoice's payment; a paid invoice of a period in its grace
        renews the subscription.
  bank-transfer
        Show the bank-transfer instructions every pending invoice shows (how workspaces pay).
  set-bank-transfer --holder-en <name> --holder-ar <name> --bank-en <name> --bank-ar <name>
                    --account <IBAN or account number> [--notes-en <text>] [--notes-ar <text>]
        Set them, replacing the previous ones: the account's holder and bank (at least one
        language each; a reader of the other sees these), the IBAN or account number (letters,
        digits, spaces, dashes) and a note. The transfer's reference is each invoice's number.
        Kept in the database; record each payment with record-payment as before.
  clear-bank-transfer
        Remove them: pending invoices then tell the workspace to contact the operator to pay.
  reset-second-factors <email>
        Remove every second factor and recovery code of the person with that email address, who
        lost theirs: they sign in with their password alone until they add one again. Recorded in
        their sign-in history and mailed to them.
  rotate-signing-keys
        Sign ID tokens with a new key from now on. The key it replaces stays published for two
        days, so what it signed still verifies; every running instance switches within a minute.
  check-codes
        List, per workspace, the codes stored before codes were normalized that are one code
        under the rule (the same letters in another Unicode form, with invisible characters or
        full-width) or no code at all. They were left as they are: rename all but one of each.
  backup <file>
        Write a copy of the embedded database to a new file (a gzipped tar), while the server
        runs. Uploaded files are not in it (copy DATA_DIR/uploads). PostgreSQL: pg_dump.
  restore <file> [--force]
        Put a backup back as DATA_DIR's embedded database. Refused while a server runs on
        DATA_DIR, and when DATA_DIR holds a database unless --force replaces it.
  copy-uploads
        Copy DATA_DIR/uploads (uploads and application logos) into the S3 bucket configured by
        S3_BUCKET, under the same names, before switching the server to it. A file the bucket
        already holds with the same size is skipped: run it again to resume a copy cut short (a
        complete one copies 0). Prints what it copied, skipped and could not copy. It runs in
        this process with this environment, never in a running server, and opens no database.
  help, --help, -h
        Show this text.

Each workspace's admins are mailed, in their language, when a subscription is requested,
approved or rejected.

Every invitation is printed with its link (valid ${invitationLifetimeDays} days) and mailed.

Commands run beside the running server: when a Dukkan server runs on the same DATA_DIR, the
command is sent to it over the unix socket DATA_DIR/operator.sock (which only the server's OS
account can open) and runs inside it, with its database, mail and PUBLIC_URL. The embedded
database (PGlite) serves one process, so there is no need to stop the server.

Without a running server the command opens the database itself, with the server's environment
variables (DATABASE_URL, or DATA_DIR for the embedded database, default ./data; PUBLIC_URL for
links; SMTP_URL or the outbox folder for mail); migrations run first.

Exit codes: 0 done, 2 bad input, 1 any other failure.
`;
