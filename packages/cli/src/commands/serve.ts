import type { Command } from "commander";
import type { CommandContext } from "../run.ts";

export function addServeCommand(_program: Command, _context: CommandContext): void {}
