/** `trestle reject <task | seq>`: the task's owner rejects it, signed with the owner key. */
import { approvalCommand } from "./approval.js";

/** `reject`: an owner-signed rejection; prints the task's new state. */
export const reject = approvalCommand("reject", "reject a task on your resources (signed with your owner key)");
