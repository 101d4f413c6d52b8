import { i } from "@instantdb/core";
import { timestamps, type Currency } from "./shared";

const entities = {
  invoices: i.entity({
    ...timestamps,
    amount: i.number(),
    currency: i.string<Currency>(),
    lines: i.json<{ description: string; cents: number }[]>(),
  }),
};

const links = {
  invoiceOrganization: {
    forward: { on: "invoices", has: "one", label: "organization", onDelete: "cascade" },
    reverse: { on: "organizations", has: "many", label: "invoices" },
  },
} as const;

export default { entities, links };
