/** `trestle approve <task | seq>`: the task's owner approves it, signed with the owner key. */
import { approvalCommand } from "./approval.js";

/** `approve`: an owner-signed approval; prints the task's new state. */
export const approve = approvalCommand("approve", "approve a task on your resources (signed with your owner key)");
