import type { JsonObject } from '@rondo/protocol';
import { createServer, structured, type RondoServer } from '@rondo/server';

// A large, realistic catalog for the tool search tests: 25 services of an organisation, each with
// five kinds of record and eight operations on each, 1,000 tools in all, spread over upstreams.

/** A service: its tool-name prefix, what it is (for descriptions) and its records. */
interface Service {
  readonly key: string;
  readonly domain: string;
  readonly records: readonly [singular: string, plural: string][];
}

export const SERVICES: readonly Service[] = [
  {
    key: 'calendar',
    domain: 'the team calendar',
    records: [
      ['event', 'events'],
      ['attendee', 'attendees'],
      ['room', 'rooms'],
      ['reminder', 'reminders'],
      ['holiday', 'holidays'],
    ],
  },
  {
    key: 'billing',
    domain: 'the billing system',
    records: [
      ['invoice', 'invoices'],
      ['payment', 'payments'],
      ['refund', 'refunds'],
      ['subscription', 'subscriptions'],
      ['coupon', 'coupons'],
    ],
  },
  {
    key: 'crm',
    domain: 'the customer relationship manager',
    records: [
      ['contact', 'contacts'],
      ['lead', 'leads'],
      ['deal', 'deals'],
      ['account', 'accounts'],
      ['note', 'notes'],
    ],
  },
  {
    key: 'github',
    domain: 'GitHub',
    records: [
      ['repository', 'repositories'],
      ['issue', 'issues'],
      ['pull_request', 'pull requests'],
      ['release', 'releases'],
      ['branch', 'branches'],
    ],
  },
  {
    key: 'jira',
    domain: 'the Jira project tracker',
    records: [
      ['ticket', 'tickets'],
      ['sprint', 'sprints'],
      ['epic', 'epics'],
      ['board', 'boards'],
      ['worklog', 'worklogs'],
    ],
  },
  {
    key: 'slack',
    domain: 'Slack',
    records: [
      ['channel', 'channels'],
      ['message', 'messages'],
      ['thread', 'threads'],
      ['emoji', 'emojis'],
      ['bookmark', 'bookmarks'],
    ],
  },
  {
    key: 'drive',
    domain: 'the shared drive',
    records: [
      ['folder', 'folders'],
      ['document', 'documents'],
      ['spreadsheet', 'spreadsheets'],
      ['permission', 'permissions'],
      ['comment', 'comments'],
    ],
  },
  {
    key: 'hr',
    domain: 'the human resources system',
    records: [
      ['employee', 'employees'],
      ['vacation', 'vacations'],
      ['payslip', 'payslips'],
      ['review', 'reviews'],
      ['position', 'positions'],
    ],
  },
  {
    key: 'inventory',
    domain: 'the warehouse inventory',
    records: [
      ['product', 'products'],
      ['stock_level', 'stock levels'],
      ['warehouse', 'warehouses'],
      ['supplier', 'suppliers'],
      ['shipment', 'shipments'],
    ],
  },
  {
    key: 'shop',
    domain: 'the online shop',
    records: [
      ['order', 'orders'],
      ['cart', 'carts'],
      ['customer', 'customers'],
      ['discount', 'discounts'],
      ['wishlist', 'wishlists'],
    ],
  },
  {
    key: 'support',
    domain: 'the customer support desk',
    records: [
      ['case', 'cases'],
      ['macro', 'macros'],
      ['satisfaction_survey', 'satisfaction surveys'],
      ['agent', 'agents'],
      ['escalation', 'escalations'],
    ],
  },
  {
    key: 'monitoring',
    domain: 'the monitoring platform',
    records: [
      ['alert', 'alerts'],
      ['dashboard', 'dashboards'],
      ['metric', 'metrics'],
      ['incident', 'incidents'],
      ['silence', 'silences'],
    ],
  },
  {
    key: 'cloud',
    domain: 'the cloud account',
    records: [
      ['virtual_machine', 'virtual machines'],
      ['bucket', 'buckets'],
      ['load_balancer', 'load balancers'],
      ['dns_record', 'DNS records'],
      ['firewall_rule', 'firewall rules'],
    ],
  },
  {
    key: 'database',
    domain: 'the database cluster',
    records: [
      ['table', 'tables'],
      ['backup', 'backups'],
      ['replica', 'replicas'],
      ['index', 'indexes'],
      ['migration', 'migrations'],
    ],
  },
  {
    key: 'email',
    domain: 'the mail server',
    records: [
      ['mailbox', 'mailboxes'],
      ['draft', 'drafts'],
      ['attachment', 'attachments'],
      ['filter', 'filters'],
      ['signature', 'signatures'],
    ],
  },
  {
    key: 'wiki',
    domain: 'the company wiki',
    records: [
      ['page', 'pages'],
      ['space', 'spaces'],
      ['template', 'templates'],
      ['label', 'labels'],
      ['revision', 'revisions'],
    ],
  },
  {
    key: 'finance',
    domain: 'the accounting ledger',
    records: [
      ['journal_entry', 'journal entries'],
      ['budget', 'budgets'],
      ['expense', 'expenses'],
      ['tax_rate', 'tax rates'],
      ['cost_center', 'cost centers'],
    ],
  },
  {
    key: 'marketing',
    domain: 'the marketing platform',
    records: [
      ['campaign', 'campaigns'],
      ['audience', 'audiences'],
      ['newsletter', 'newsletters'],
      ['landing_page', 'landing pages'],
      ['ad', 'ads'],
    ],
  },
  {
    key: 'fleet',
    domain: 'the vehicle fleet',
    records: [
      ['vehicle', 'vehicles'],
      ['driver', 'drivers'],
      ['trip', 'trips'],
      ['fuel_card', 'fuel cards'],
      ['maintenance', 'maintenances'],
    ],
  },
  {
    key: 'legal',
    domain: 'the legal department',
    records: [
      ['contract', 'contracts'],
      ['clause', 'clauses'],
      ['signatory', 'signatories'],
      ['dispute', 'disputes'],
      ['trademark', 'trademarks'],
    ],
  },
  {
    key: 'learning',
    domain: 'the learning portal',
    records: [
      ['course', 'courses'],
      ['lesson', 'lessons'],
      ['quiz', 'quizzes'],
      ['certificate', 'certificates'],
      ['enrollment', 'enrollments'],
    ],
  },
  {
    key: 'security',
    domain: 'the security center',
    records: [
      ['vulnerability', 'vulnerabilities'],
      ['api_key', 'API keys'],
      ['audit_event', 'audit events'],
      ['policy', 'policies'],
      ['device', 'devices'],
    ],
  },
  {
    key: 'travel',
    domain: 'the travel booking tool',
    records: [
      ['flight', 'flights'],
      ['hotel', 'hotels'],
      ['itinerary', 'itineraries'],
      ['visa', 'visas'],
      ['travel_expense', 'travel expenses'],
    ],
  },
  {
    key: 'facilities',
    domain: 'the office facilities',
    records: [
      ['desk', 'desks'],
      ['parking_spot', 'parking spots'],
      ['visitor', 'visitors'],
      ['badge', 'badges'],
      ['repair_request', 'repair requests'],
    ],
  },
  {
    key: 'analytics',
    domain: 'the analytics warehouse',
    records: [
      ['report', 'reports'],
      ['query', 'queries'],
      ['dataset', 'datasets'],
      ['chart', 'charts'],
      ['schedule', 'schedules'],
    ],
  },
];

/** The eight operations on each kind of record, with their description and arguments. */
const OPERATIONS: readonly {
  verb: string;
  describe: (one: string, many: string, domain: string) => string;
  args: (one: string) => string[];
}[] = [
  {
    verb: 'list',
    describe: (_o, m, d) => `List the ${m} in ${d}, newest first, one page at a time.`,
    args: () => ['page', 'page_size'],
  },
  {
    verb: 'get',
    describe: (o, _m, d) => `Get one ${o} of ${d} by its id, with every field.`,
    args: (o) => [`${o}_id`],
  },
  {
    verb: 'create',
    describe: (o, _m, d) => `Create a new ${o} in ${d} from the given fields.`,
    args: () => ['fields'],
  },
  {
    verb: 'update',
    describe: (o, _m, d) => `Update (edit) the fields of an existing ${o} in ${d}.`,
    args: (o) => [`${o}_id`, 'fields'],
  },
  {
    verb: 'delete',
    describe: (o, _m, d) => `Delete an ${o} from ${d} permanently; it cannot be restored.`,
    args: (o) => [`${o}_id`],
  },
  {
    verb: 'search',
    describe: (_o, m, d) => `Search the ${m} of ${d} by keywords and filters.`,
    args: () => ['keywords', 'filters'],
  },
  {
    verb: 'archive',
    describe: (o, _m, d) => `Archive an old ${o} of ${d} so that it no longer shows up in lists.`,
    args: (o) => [`${o}_id`],
  },
  {
    verb: 'export',
    describe: (_o, m, d) => `Export all the ${m} of ${d} as a CSV file for a spreadsheet.`,
    args: () => ['format'],
  },
];

/** One tool of the catalog, as its upstream offers it (without the gateway's namespace). */
export interface CatalogTool {
  readonly name: string;
  readonly description: string;
  readonly args: readonly string[];
}

/** The tools of one service. */
export function toolsOf(service: Service): CatalogTool[] {
  const tools: CatalogTool[] = [];
  for (const [one, many] of service.records) {
    const spoken = one.replace(/_/g, ' ');
    for (const operation of OPERATIONS)
      tools.push({
        name: `${service.key}_${operation.verb}_${one}`,
        description: operation.describe(spoken, many, service.domain),
        args: operation.args(one),
      });
  }
  return tools;
}

/** An upstream serving `services`: each tool answers with its name and the arguments it got. */
export function upstreamOf(name: string, services: readonly Service[]): RondoServer {
  const server = createServer({ name, version: '1.0.0' });
  for (const service of services)
    for (const tool of toolsOf(service)) {
      const properties = Object.fromEntries(
        tool.args.map((arg) => [arg, { type: ['string', 'integer', 'object'] }]),
      );
      server.tool(
        tool.name,
        { description: tool.description, input: { type: 'object', properties } },
        (args) => structured({ tool: tool.name, args: args as JsonObject }),
      );
    }
  return server;
}

/**
 * Thirty requests as a person would type them, written from the descriptions, and the tool each
 * means (as the gateway offers it: the upstream's namespace first).
 */
export const QUERIES: readonly { query: string; tool: string }[] = [
  { query: 'delete a calendar event permanently', tool: 'calendar_delete_event' },
  { query: 'issue a refund in billing', tool: 'billing_create_refund' },
  { query: 'list the open pull requests on GitHub', tool: 'github_list_pull_request' },
  { query: 'create a new jira ticket', tool: 'jira_create_ticket' },
  { query: 'search slack messages by keywords', tool: 'slack_search_message' },
  { query: 'export all employees of HR as CSV', tool: 'hr_export_employee' },
  { query: 'get one warehouse stock level by id', tool: 'inventory_get_stock_level' },
  { query: 'archive an old shop order', tool: 'shop_archive_order' },
  { query: 'update the fields of a support case', tool: 'support_update_case' },
  { query: 'list monitoring alerts newest first', tool: 'monitoring_list_alert' },
  { query: 'delete a virtual machine in the cloud account', tool: 'cloud_delete_virtual_machine' },
  { query: 'export the database backups to a spreadsheet', tool: 'database_export_backup' },
  { query: 'create a mail filter on the mail server', tool: 'email_create_filter' },
  { query: 'search wiki pages', tool: 'wiki_search_page' },
  { query: 'get a budget from the accounting ledger', tool: 'finance_get_budget' },
  { query: 'create a marketing campaign', tool: 'marketing_create_campaign' },
  { query: 'list the trips of the vehicle fleet', tool: 'fleet_list_trip' },
  { query: 'edit an existing contract in legal', tool: 'legal_update_contract' },
  { query: 'archive a course on the learning portal', tool: 'learning_archive_course' },
  { query: 'delete an API key permanently', tool: 'security_delete_api_key' },
  { query: 'search hotels in the travel booking tool', tool: 'travel_search_hotel' },
  { query: 'list visitors of the office facilities', tool: 'facilities_list_visitor' },
  { query: 'export analytics reports as CSV', tool: 'analytics_export_report' },
  { query: 'create a new lead in the customer relationship manager', tool: 'crm_create_lead' },
  { query: 'get one GitHub release by its id', tool: 'github_get_release' },
  { query: 'update a sprint of the project tracker', tool: 'jira_update_sprint' },
  { query: 'archive a slack channel so it no longer shows up', tool: 'slack_archive_channel' },
  { query: 'list the documents in the shared drive', tool: 'drive_list_document' },
  { query: 'search incidents on the monitoring platform', tool: 'monitoring_search_incident' },
  { query: 'delete a parking spot from facilities', tool: 'facilities_delete_parking_spot' },
];
