import { i } from "@instantdb/core";

export const timestamps = {
  createdAt: i.date().indexed(),
  updatedAt: i.date().optional(),
};

export type Currency = "usd" | "eur" | "gbp";
