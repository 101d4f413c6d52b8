// Fixture for instant-schema: one file that uses every pattern the generator supports.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
import "./setup";
import { i as instant } from '@instantdb/react'
import type { Palette } from "./types";
import { type Coordinates } from "./types";
import type { Something } from "some-package";

type Priority = 'low' | 'medium' | 'high'
export type Mood = "happy" | "sad";

interface Address {
  street: string;
  /** Postal code. */
  zip?: string;
}

const _schema = instant.schema({
  entities: {
    $users: instant.entity({
      email: instant.string().unique().indexed(),
      imageURL: instant.string().optional(),
      type: instant.string().optional(),
    }),
    $files: instant.entity({
      path: instant.string().unique().indexed(),
      url: instant.string(),
    }),
    $streams: instant.entity({
      clientId: instant.string().unique().indexed(),
      done: instant.boolean().optional(),
    }),
    /**
     * A task on a board.
     * Shown in the task list.
     */
    tasks: instant.entity({
      id: instant.string().unique().indexed(),
      // The task's title.
      title: instant.string(),
      "content-type": instant.string().optional(),
      "disabled?": instant.boolean().optional(),
      private: instant.boolean(),
      created_at: instant.date(),
      dueAt: instant.date().optional().indexed(),
      estimate: instant.number().indexed().optional(),
      status: instant.string<"todo" | "in-progress" | "done" | "unknown">().indexed(),
      priority: instant.string<Priority>().optional(),
      mood: instant.string<Mood>(),
      tags: instant.json<string[]>(),
      scores: instant.json<Record<string, number>>().optional(),
      metadata: instant
        .json<{
          source: string; // where it came from
          attempts?: number;
          nested: { deep: boolean; labels: Array<string> };
          address: Address;
        }>()
        .optional(),
      checklist: instant.json<Array<{ label: string; done: boolean }>>(),
      palette: instant.json<Palette>().optional(),
      position: instant.json<Coordinates>(),
      external: instant.json<Something>().optional(),
      extra: instant.any(),
      blob: instant.json(),
      legacy: instant.string().clientRequired(),
    }),
    people: instant.entity({
      name: instant.string(),
      "date": instant.date(),
    }),
    categories: instant.entity({ name: instant.string() }),
    statuses: instant.entity({}),
    "journal-entries": instant.entity({
      body: instant.string(),
    }),
    data: instant.entity({
      value: instant.any().optional(),
    }),
    segments: instant.entity({
      label: instant.string(),
    }),
    // Names Swift cannot take as they are.
    oddities: instant.entity({
      namespace: instant.string(),
      links: instant.string(),
      init: instant.string(),
      self: instant.string(),
      Type: instant.string(),
      default: instant.string().optional(),
      mutationArguments: instant.string(),
      "2fa": instant.boolean(),
      kind: instant.string<"self" | "init" | "" | "2x" | "rawValue">(),
      nested: instant.json<{ instantValue: string; "a-b": number; CodingKeys: boolean }>(),
      date: instant.json<{ when: string }>(),
    }),
  },
  links: {
    taskOwner: {
      forward: { on: "tasks", has: "one", label: "owner", onDelete: "cascade" },
      reverse: { on: "$users", has: "many", label: "tasks" },
    },
    taskCategories: {
      forward: { on: 'tasks', has: 'many', label: 'categories' },
      reverse: { on: 'categories', has: 'many', label: 'tasks' },
    },
    personUser: {
      forward: { on: "people", has: "one", label: "$user", required: true },
      reverse: { on: "$users", has: "one", label: "person", onDelete: "cascade" },
    },
    taskFiles: {
      forward: { on: "tasks", has: "many", label: "$files" },
      reverse: { on: "$files", has: "one", label: "task" },
    },
    segmentParent: {
      forward: { on: "segments", has: "one", label: "parent" },
      reverse: { on: "segments", has: "many", label: "children" },
    },
    odditySelf: {
      forward: { on: "oddities", has: "one", label: "super" },
      reverse: { on: "oddities", has: "one", label: "namespace2" },
    },
    entryClass: {
      forward: { on: "journal-entries", has: "one", label: "class" },
      reverse: { on: "people", has: "one", label: "entry" },
    },
  },
  rooms: {
    chat: {
      presence: instant.entity({
        name: instant.string(),
        isTyping: instant.boolean(),
        cursor: instant.json<{ x: number; y: number }>().optional(),
        lastSeen: instant.date().optional(),
      }),
      topics: {
        emoji: instant.entity({
          name: instant.string<"heart" | "fire">(),
          angle: instant.number(),
        }),
        "typing-started": instant.entity({}),
      },
    },
    lobby: {
      presence: instant.entity({}),
    },
  },
})

type _AppSchema = typeof _schema
interface AppSchema extends _AppSchema {}
const schema: AppSchema = _schema

export type { AppSchema }
export default schema
