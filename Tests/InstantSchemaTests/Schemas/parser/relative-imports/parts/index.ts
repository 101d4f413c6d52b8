export { base } from "./base";
export { default as comments } from "./comments";
